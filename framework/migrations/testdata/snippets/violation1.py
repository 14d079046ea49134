from django.db import models


class Snippet(models.Model):
    title = models.CharField(max_length=50)
    slug = models.SlugField()
    code = models.CharField(max_length=50)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=['title', 'slug'], name='unique_title_slug',
                                    violation_error_message='Title and slug are taken.'),
            models.UniqueConstraint(fields=['code', 'title'], name='unique_code'),
        ]
