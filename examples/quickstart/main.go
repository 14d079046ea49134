// Command quickstart is DRF's quickstart (tutorial/quickstart) on go-drf:
// Django's users and groups through hyperlinked serializers, two model
// viewsets behind a router, pages of 10. It is its own manage program:
//
//	go run . migrate
//	go run . createsuperuser --username admin --email admin@example.com
//	go run . runserver
package main

import (
	"os"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/project"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/routers"
	"github.com/go-drf/drf/framework/serializers"
)

// serializers.py
var (
	userSerializer  = serializers.MustNew[auth.User](serializers.Hyperlinked(), serializers.Fields("url", "username", "email", "groups"))
	groupSerializer = serializers.MustNew[auth.Group](serializers.Hyperlinked(), serializers.Fields("url", "name"))
)

// views.py and urls.py
func urls(api *framework.API, db *sqlx.DB) error {
	users := &generics.ModelViewSet[auth.User]{}
	users.Source = queryset.MustSQL[auth.User](db, queryset.SQLConfig{}).OrderBy(query.ParseOrder("-date_joined"))
	users.Serializer, users.Permissions = userSerializer, framework.Permissions(framework.IsAuthenticated{})
	groups := &generics.ModelViewSet[auth.Group]{}
	groups.Source = queryset.MustSQL[auth.Group](db, queryset.SQLConfig{}).OrderBy(query.ParseOrder("name"))
	groups.Serializer, groups.Permissions = groupSerializer, framework.Permissions(framework.IsAuthenticated{})
	var router routers.DefaultRouter
	router.Register("users", users, "")
	router.Register("groups", groups, "")
	router.Mount(api)
	return nil
}

// Project is settings.py: DRF's defaults, with pages of 10.
var Project = project.Project{SecretKey: "django-insecure-quickstart", URLs: urls,
	Settings: framework.Settings{Pagination: &pagination.PageNumberPagination{}, PageSize: 10}}

func main() { os.Exit(Project.Main(os.Args[1:])) }
