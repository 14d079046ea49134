// Package project is what Django's startproject writes, as one value: a
// service's apps, its URLs and DRF's default settings, with the
// management commands of its manage.py.
//
// A Project answers as a DRF service that startproject began: Session
// then Basic authentication (DRF's DEFAULT_AUTHENTICATION_CLASSES), the
// JSON then the browsable renderer (DEFAULT_RENDERER_CLASSES), the
// headers of Django's default SecurityMiddleware and
// XFrameOptionsMiddleware, sessions with CSRF protection, and the
// browsable API's login and logout pages under /api-auth/ (DRF's
// rest_framework.urls). Its migrations run auth's, contenttypes' and
// sessions' before the project's own apps, as INSTALLED_APPS orders them.
package project

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/contenttypes"
	"github.com/go-drf/drf/contrib/sessions"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/browsable"
	"github.com/go-drf/drf/framework/management"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
)

// Project is a Django project: its settings.py and urls.py.
type Project struct {
	// SecretKey is Django's SECRET_KEY, which signs sessions. The
	// environment's SECRET_KEY, when set, replaces it; the service
	// refuses to start with neither, as Django does.
	SecretKey string
	// Settings are the API's (DRF's REST_FRAMEWORK setting). Those left
	// unset keep DRF's defaults as startproject has them: Session then
	// Basic authentication, the JSON then the browsable renderer.
	Settings framework.Settings
	// Apps are the project's own apps (INSTALLED_APPS after contrib's):
	// migrate applies their migrations after auth's and sessions', and
	// makemigrations and sqlmigrate know them (sqlmigrate knows
	// contenttypes, auth and sessions too).
	Apps []*migrations.App
	// URLs registers the project's routes on api (urls.py), with the
	// database its sources read. It is required.
	URLs func(api *framework.API, db *sqlx.DB) error
	// Commands are the project's own management commands, after
	// migrate, makemigrations, sqlmigrate, createsuperuser and runserver.
	Commands []management.Command
}

// Handler returns the project's service on db, with the key that signs
// its sessions (the project's SecretKey when key is ""). It installs the
// models of every installed app on db first (queryset.Installed), as
// Django's apps.populate loads them, so that a delete applies the
// on_delete of every installed model's foreign keys (Django's
// Collector), not only of the models the views name, and of no other; a
// model that cannot be described is an error naming its app.
func (p *Project) Handler(db *sqlx.DB, key string) (http.Handler, error) {
	key = cmp.Or(key, p.SecretKey)
	if key == "" {
		return nil, errors.New("project: the SECRET_KEY setting must not be empty")
	}
	if p.URLs == nil {
		return nil, errors.New("project: URLs is nil: a project needs its routes")
	}
	installed := queryset.Installed(db)
	for _, app := range p.installed() {
		for _, t := range app.Models {
			d, err := models.Describe(t)
			if err != nil {
				return nil, fmt.Errorf("project: app %s: %w", app.Label, err)
			}
			installed.Add(d)
		}
	}
	s := p.Settings
	users := &auth.Users{DB: db}
	logins := &sessions.Manager{DB: db, Users: users, SecretKey: key, Logger: s.Logger}
	if !s.Authentication.IsSet() {
		s.Authentication = framework.Authenticators(authentication.Session{Sessions: logins},
			authentication.Basic{Users: auth.ModelBackend{Users: users}})
	}
	if !s.Renderers.IsSet() {
		s.Renderers = framework.Renderers(framework.JSONRenderer{}, browsable.Renderer{CSRFToken: logins.Protection().Token})
	}
	api := framework.NewAPI(db, s)
	if err := p.URLs(api, db); err != nil {
		return nil, err
	}
	api.Route("/api-auth", "rest_framework", func(api *framework.API) {
		api.HandleHTTP("/login/", logins.LoginPage(), framework.Named("login"))
		api.HandleHTTP("/logout/", logins.LogoutPage(), framework.Named("logout"))
	})
	return framework.SecurityHeadersAt(s.Compatibility, logins.Middleware(api)), nil
}

// Migrations returns every migration of the project in the order migrate
// applies them: auth's and contenttypes', sessions', then each app's;
// an error when one does not render or depends on a migration none of
// the apps has (migrations.Check).
func (p *Project) Migrations() ([]migrations.Migration, error) {
	all := slices.Concat(auth.Migrations, sessions.Migrations)
	for _, app := range p.Apps {
		all = append(all, app.Migrations()...)
	}
	if err := migrations.Check(all...); err != nil {
		return nil, err
	}
	return all, nil
}

// Main runs the management command args names (manage.py's argv[1:]) and
// returns the exit status: migrate, makemigrations, sqlmigrate,
// createsuperuser, runserver and the project's Commands.
func (p *Project) Main(args []string) int {
	migs, err := p.Migrations()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	serve := func(ctx context.Context, env *management.Env) (http.Handler, error) {
		db, err := env.DB()
		if err != nil {
			return nil, err
		}
		return p.Handler(db, env.Var("SECRET_KEY"))
	}
	cmds := []management.Command{management.Migrate(migs...), management.MakeMigrations(p.Apps...),
		management.SQLMigrate(p.installed()...), auth.CreateSuperuserCommand(nil),
		management.Runserver(serve, nil)}
	return management.Main(args, append(cmds, p.Commands...)...)
}

// installed are the project's INSTALLED_APPS: contenttypes, auth and
// sessions, then its own.
func (p *Project) installed() []*migrations.App {
	return append([]*migrations.App{contenttypes.App, auth.App, sessions.App}, p.Apps...)
}
