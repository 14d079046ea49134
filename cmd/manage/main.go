// Command manage is the bookshelf sample's manage program, like a Django
// project's manage.py, built on framework/management:
//
//	manage migrate                      create or update the database schema
//	manage makemigrations [bookshelf]   write a migration for changed models (sample/migration_*.go)
//	manage sqlmigrate bookshelf NAME    print a migration's SQL for the database
//	manage seed [--books N]             load the demo users and N books (default 100)
//	manage createsuperuser              add an administrator
//	manage drf_create_token USER [-r]   print USER's API token (-r: a new one)
//	manage hashedtoken create USER      a hashed device token (also list, revoke, clearexpired)
//	manage create_api_key NAME          print a new API key (djangorestframework-api-key), once
//	manage revoke_api_key PREFIX        revoke the API key with that prefix, for good
//	manage grant_permission USER PERM   add APP_LABEL.CODENAME to USER's own permissions
//	manage revoke_permission USER PERM  remove it
//	manage runserver [ADDR]             serve the API, by default on 127.0.0.1:8000
//	manage generateschema [--format openapi|openapi-json] [--api-version V]
//	                                    print the API's OpenAPI 3.1 document
//	manage inspectdb [--package NAME] [TABLE...]
//	                                    print Go models for the database's tables
//	manage help [COMMAND]
//
// The database is --database URL, else $DATABASE_URL, else db.sqlite3 in
// the working directory: "sqlite:///db.sqlite3", "sqlite:////abs/path" or
// "postgres://user:password@host:5432/name" (docs/scaling.md). Several
// runserver instances share one PostgreSQL database; $CACHE_URL
// ("redis://host:6379/0") gives them one throttle cache (else each counts
// in its own memory). runserver migrates it and, when it has no users
// yet, loads the demo data, so `go run ./cmd/manage runserver` works on a
// fresh checkout; it prints each migration it applies and the loading,
// as it runs them. $SAMPLE_REMOTE_USER_HEADER names the header an
// authenticating proxy sets for /auth/remote-user/ (off when unset).
// $ALLOWED_HOSTS, comma-separated, lists the host names served (Django's
// ALLOWED_HOSTS: "api.example.org,.example.org"); else this machine's
// names and the sample's example.com hosts (sample.DefaultAllowedHosts).
//
// Shared with a Django site (docs/django.md): $SECRET_KEY signs the
// sessions (else a public development key, announced at start),
// $SECRET_KEY_FALLBACKS lists older keys, comma-separated, and
// $PASSWORD_HASHERS the hashers' algorithm names in Django's order
// ("argon2,pbkdf2_sha256"; else Django 5.2's defaults, Django 3.2's at
// $DRF_COMPAT=3.14).
//
// $DRF_COMPAT=3.14 answers as DRF 3.14 on Django 3.2 where those differ
// from DRF 3.18 on Django 5.2, the default (docs/django.md); another
// value refuses to start.
//
// Operations (docs/operations.md): $LOG_FORMAT=json logs JSON lines (else
// text), $LOG_LEVEL the least level logged (debug, info, warn, error);
// every request is one access line with its request ID; /livez and
// /readyz answer load balancers, and $SHUTDOWN_DELAY ("5s") keeps serving
// after SIGTERM with /readyz failing before the drain. OpenTelemetry is
// off unless $OTEL_TRACES_EXPORTER or $OTEL_METRICS_EXPORTER names an
// exporter (otlp, console; prometheus for metrics), with the SDK's other
// OTEL_ variables ($OTEL_EXPORTER_OTLP_ENDPOINT, $OTEL_SERVICE_NAME).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/apikey"
	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/contrib/hashedtoken"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/cache"
	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/management"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/schemas"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/framework/telemetry"
	"github.com/go-drf/drf/sample"
)

func main() {
	os.Exit(management.Main(os.Args[1:], commands()...))
}

// commands are the sample project's commands: the framework's, and seed.
func commands() []management.Command {
	return []management.Command{
		management.Migrate(sample.Migrations()...),
		management.MakeMigrations(sample.App),
		management.SQLMigrate(sample.App),
		seed(),
		auth.CreateSuperuserCommand(nil),
		authtoken.CreateTokenCommand(),
		hashedtoken.Command(sample.DeviceTokens),
		apikey.CreateCommand(passwordHashers),
		apikey.RevokeCommand(),
		auth.GrantPermissionCommand(),
		auth.RevokePermissionCommand(),
		management.Runserver(serve, nil),
		schemas.Command(schema),
		management.InspectDB(),
	}
}

// schema is the generator of generateschema: the API's routes, registered
// on a migrated in-memory database (the document does not depend on data),
// which closes when the command ends.
func schema(ctx context.Context, env *management.Env) (*schemas.Generator, error) {
	db, err := store.Open(":memory:")
	if err != nil {
		return nil, err
	}
	context.AfterFunc(ctx, func() { _ = db.Close() })
	if err := sample.Migrate(ctx, db); err != nil {
		return nil, err
	}
	api, err := sample.NewAPI(ctx, db)
	if err != nil {
		return nil, err
	}
	return sample.Schema(api), nil
}

// seed is "seed [--books N]": the contract's demo users and N books.
func seed() management.Command {
	return management.Command{
		Name:  "seed",
		Usage: "[--books N]",
		Help: "Loads the demo users (admin, alice, bob) and N books, replacing any books.\n\n" +
			"  --books N  how many books (default 100)",
		Run: func(ctx context.Context, env *management.Env, args []string) error {
			fs := flag.NewFlagSet("seed", flag.ContinueOnError)
			books := fs.Int("books", sample.DefaultBooks, "")
			if err := management.ParseFlags(fs, args); err != nil {
				return err
			}
			if fs.NArg() > 0 || *books < 0 {
				return &management.UsageError{Msg: "expected only --books N, N ≥ 0"}
			}
			db, err := env.DB()
			if err != nil {
				return &management.CommandError{Msg: err.Error()}
			}
			if err := sample.Seed(ctx, db, *books); err != nil {
				return &management.CommandError{Msg: fmt.Sprintf("%v (did you run migrate?)", err)}
			}
			fmt.Fprintf(env.Stdout, "Seeded 3 users and %d books.\n", *books)
			return nil
		},
	}
}

// serve is what runserver serves: the sample on a migrated database, with
// the demo data loaded into an empty one, its /readyz failing once ctx
// ends, logging on runserver's logger, with the OpenTelemetry the OTEL_
// variables ask for (framework/telemetry; flushed when runserver ends).
func serve(ctx context.Context, env *management.Env) (http.Handler, error) {
	level, err := framework.ParseCompatibility(env.Var(compat.Env))
	if err != nil {
		return nil, &management.CommandError{Msg: err.Error()}
	}
	tel, err := telemetry.FromEnv(ctx)
	if err != nil {
		return nil, &management.CommandError{Msg: err.Error()}
	}
	env.AtClose(func() {
		flush, cancel := context.WithTimeout(context.WithoutCancel(ctx), telemetryFlushTimeout)
		defer cancel()
		if err := tel.Shutdown(flush); err != nil {
			fmt.Fprintf(env.Stderr, "telemetry: %v\n", err)
		}
	})
	env.Store = tel.StoreOptions()
	db, err := env.DB()
	if err != nil {
		return nil, &management.CommandError{Msg: err.Error()}
	}
	if err := tel.ObservePool(db.DB); err != nil {
		return nil, err
	}
	if err := migrate(ctx, env.Stdout, db); err != nil {
		return nil, err
	}
	var users int
	if err := db.GetContext(ctx, &users, `SELECT count(*) FROM "auth_user"`); err != nil {
		return nil, err
	}
	if users == 0 {
		fmt.Fprintf(env.Stdout, "Loading the demo data: users admin, alice and bob, %d books...", sample.DefaultBooks)
		switch err := sample.Seed(ctx, db, sample.DefaultBooks); {
		case store.IsUniqueViolation(err):
			// Another instance, started at the same moment on the same
			// empty database, loaded the demo data first.
			fmt.Fprintln(env.Stdout, " OK (by another instance)")
		case err != nil:
			fmt.Fprintln(env.Stdout, " FAILED")
			return nil, err
		default:
			fmt.Fprintln(env.Stdout, " OK")
		}
	}
	opts := []sample.Option{sample.Logger(env.Logger), sample.Observer(tel.Observer()), sample.Stopping(ctx), sample.Compatibility(level)}
	if url := env.Var("CACHE_URL"); url != "" {
		c, err := cache.Open(url)
		if err != nil {
			return nil, &management.CommandError{Msg: "CACHE_URL: " + err.Error()}
		}
		opts = append(opts, sample.ThrottleCache(c))
	}
	if h := env.Var("SAMPLE_REMOTE_USER_HEADER"); h != "" {
		opts = append(opts, sample.TrustRemoteUserHeader(h))
	}
	if hosts := list(env.Var("ALLOWED_HOSTS")); hosts != nil {
		opts = append(opts, sample.AllowedHosts(hosts...))
	}
	if key := env.Var("SECRET_KEY"); key != "" {
		opts = append(opts, sample.SecretKey(key, list(env.Var("SECRET_KEY_FALLBACKS"))...))
	} else {
		fmt.Fprintln(env.Stdout, "Signing sessions with the public development key: set SECRET_KEY in production.")
	}
	hs, err := passwordHashers(env)
	if err != nil {
		return nil, &management.CommandError{Msg: err.Error()}
	}
	if hs != nil {
		opts = append(opts, sample.PasswordHashers(hs))
	}
	h, err := sample.New(ctx, db, opts...)
	if err != nil {
		return nil, err
	}
	return tel.Middleware(h), nil
}

// migrate applies the sample's migrations that db does not record yet,
// reporting each as Django's migrate does: "Applying
// auth.0001_initial... OK".
func migrate(ctx context.Context, w io.Writer, db *sqlx.DB) error {
	applied, err := migrations.Migrate(ctx, db, sample.Migrations()...)
	for _, name := range applied {
		fmt.Fprintf(w, "Applying %s... OK\n", name)
	}
	var me *migrations.MigrationError
	if errors.As(err, &me) {
		fmt.Fprintf(w, "Applying %s... FAILED\n", me.Migration)
	}
	return err
}

// passwordHashers are $PASSWORD_HASHERS, with the parameters of the
// Django of $DRF_COMPAT; nil when unset (Django's defaults).
func passwordHashers(env *management.Env) (auth.Hashers, error) {
	names := list(env.Var("PASSWORD_HASHERS"))
	if names == nil {
		return nil, nil
	}
	level, err := framework.ParseCompatibility(env.Var(compat.Env))
	if err != nil {
		return nil, err
	}
	hs, err := auth.HashersNamedFor(level, names...)
	if err != nil {
		return nil, fmt.Errorf("PASSWORD_HASHERS: %w", err)
	}
	return hs, nil
}

// telemetryFlushTimeout bounds the flush of the telemetry at the end.
const telemetryFlushTimeout = 5 * time.Second

// list splits a comma-separated setting, nil when it is empty.
func list(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}
