"""Django's own hashers with low work factors, as Django projects use in
their test settings; algorithms and formats are unchanged."""
from django.contrib.auth import hashers


class PBKDF2PasswordHasher(hashers.PBKDF2PasswordHasher):
    iterations = 1000


class PBKDF2SHA1PasswordHasher(hashers.PBKDF2SHA1PasswordHasher):
    iterations = 1000


class Argon2PasswordHasher(hashers.Argon2PasswordHasher):
    time_cost = 1
    memory_cost = 1024
    parallelism = 2


class BCryptSHA256PasswordHasher(hashers.BCryptSHA256PasswordHasher):
    rounds = 4


class BCryptPasswordHasher(hashers.BCryptPasswordHasher):
    rounds = 4
