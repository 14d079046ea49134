// Package sample is the bookshelf API: a small service that shows every
// feature of the framework, and the Go side of the contract in
// ../shared/spec/sample-api.md, which a Django REST framework project
// implements too (the conformance test compares the two).
//
// Read it in this order: settings.go (the global settings), routes.go
// (every route, like Django's urls.py), then auth.go, pages.go,
// versioning.go and books.go for the views, custom schemes and model;
// seed.go loads the demo data.
package sample

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/contrib/hashedtoken"
	"github.com/go-drf/drf/contrib/sessions"
	"github.com/go-drf/drf/contrib/simplejwt"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/cache"
	"github.com/go-drf/drf/framework/health"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/schemas"
)

// Migrations are the sample's schema, Django's own: users, tokens,
// sessions, and the bookshelf App's books table; then the hashed device
// tokens of the /beyond/ routes, a table of their own; then simplejwt's
// blacklist (/eco/jwt/), the API keys (/eco/api-key/), and the content
// types and default permissions of the Models (/eco/perms/); then the
// leases and idempotency keys of /beyond/books/. It panics if the
// generated migrations do not convert, a programming error, as
// regexp.MustCompile does on a bad constant.
func Migrations() []migrations.Migration {
	migs := slices.Concat(auth.Migrations, authtoken.Migrations, sessions.Migrations, App.Migrations(), hashedtoken.Migrations,
		simplejwt.Migrations, ecoMigrations, beyondMigrations)
	if err := migrations.Check(migs...); err != nil {
		panic("sample: " + err.Error())
	}
	return migs
}

// Migrate applies the Migrations that db does not have yet.
func Migrate(ctx context.Context, db *sqlx.DB) error {
	_, err := migrations.Migrate(ctx, db, Migrations()...)
	return err
}

// Option configures New.
type Option func(*app)

// TrustRemoteUserHeader makes the server take the remote user of
// /auth/remote-user/ from the request header name, as set by an
// authenticating proxy. Enable it only behind a proxy that always sets or
// strips that header: anyone who can send it directly can be anyone.
func TrustRemoteUserHeader(name string) Option {
	return func(a *app) { a.remoteUserHeader = name }
}

// DevelopmentSecretKey is the SECRET_KEY the sample signs sessions with
// unless SecretKey sets another: public, for development only. In
// production set SECRET_KEY (manage runserver reads it), and use the
// Django site's when it shares the logins.
const DevelopmentSecretKey = "django-insecure-go-drf-sample-development-key-do-not-use-in-production"

// SecretKey sets Django's SECRET_KEY, which signs the sessions, and
// SECRET_KEY_FALLBACKS, older keys whose sessions are still read. A Django
// site sharing the database and its logins must use the same key.
func SecretKey(key string, fallbacks ...string) Option {
	return func(a *app) { a.sessions.SecretKey, a.sessions.SecretKeyFallbacks = key, fallbacks }
}

// PasswordHashers sets Django's PASSWORD_HASHERS: the first hashes new and
// upgraded passwords, all verify. Give the Django site's, in its order.
// The default is Django 5.2's (auth.DefaultHashers), Django 3.2's at
// framework.DRF314 (auth.HashersFor).
func PasswordHashers(hs auth.Hashers) Option {
	return func(a *app) { a.users.Hashers = hs }
}

// ThrottleCache sets the cache of the throttle histories: a cache.Redis
// that every instance of the service uses makes /api-token-auth-throttled/
// allow its rate across all of them together. The default is a
// cache.Memory of the instance's own.
func ThrottleCache(c framework.ThrottleCache) Option {
	return func(a *app) { a.throttleCache = c }
}

// DefaultAllowedHosts are the hosts the sample serves unless AllowedHosts
// sets others: this machine (Django's development defaults), the
// example.com hosts of the contract's host-name versioning, and
// "testserver", the host of apitest and of Django's test client (which
// Django's test runner allows too).
var DefaultAllowedHosts = []string{".localhost", "127.0.0.1", "[::1]", ".example.com", "testserver"}

// AllowedHosts sets Django's ALLOWED_HOSTS, the host names the sample
// answers ("api.example.org", ".example.org" with its subdomains, "*"
// any); other hosts get 400. Serving on another name or address needs it.
func AllowedHosts(hosts ...string) Option {
	return func(a *app) { a.allowedHosts = hosts }
}

// Logger is the logger of the API, its pages and CSRF checks
// (framework.Settings.Logger); the default is slog.Default().
func Logger(l *slog.Logger) Option {
	return func(a *app) { a.logger = l }
}

// Observer is told of every request's authentication, permission,
// throttle and pagination steps (framework.Settings.Observer): what
// framework/telemetry makes spans and metrics of.
func Observer(o framework.Observer) Option {
	return func(a *app) { a.observer = o }
}

// Stopping is done once the service begins to shut down: /readyz answers
// 503 from then on (runserver's context, which SIGTERM ends).
func Stopping(ctx context.Context) Option {
	return func(a *app) { a.stopping = ctx }
}

// Compatibility sets the DRF and Django release whose answers the sample
// gives (framework.Settings.Compatibility): the default DRF 3.18 on
// Django 5.2, or framework.DRF314; manage runserver reads it from
// $DRF_COMPAT.
func Compatibility(c framework.Compatibility) Option {
	return func(a *app) { a.compat = c }
}

// app holds what the views share: the stores and the options.
type app struct {
	users    *auth.Users
	tokens   *authtoken.Tokens
	devices  *hashedtoken.Tokens
	sessions *sessions.Manager
	books    *queryset.SQLSource[Book]
	covers   *queryset.SQLSource[bookCover]

	remoteUserHeader string
	throttleCache    framework.ThrottleCache
	allowedHosts     []string
	logger           *slog.Logger
	observer         framework.Observer
	stopping         context.Context
	compat           framework.Compatibility
}

// New returns the bookshelf API on db, which must be migrated (Migrate),
// with the standard security headers on every answer and Django's session
// middleware around every route (a session cookie that names no session is
// deleted, 404 pages and redirects included).
func New(ctx context.Context, db *sqlx.DB, opts ...Option) (http.Handler, error) {
	a, api, err := newAPI(ctx, db, opts...)
	if err != nil {
		return nil, err
	}
	return framework.SecurityHeadersAt(a.compat, a.sessions.Middleware(api)), nil
}

// NewAPI returns the bookshelf API on db, which must be migrated: every
// route registered, for Schema to describe (New serves it, wrapped in its
// middleware).
func NewAPI(ctx context.Context, db *sqlx.DB, opts ...Option) (*framework.API, error) {
	_, api, err := newAPI(ctx, db, opts...)
	return api, err
}

// newAPI is NewAPI, with the app the routes share.
func newAPI(ctx context.Context, db *sqlx.DB, opts ...Option) (*app, *framework.API, error) {
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM "books"`).Scan(new(int)); err != nil {
		return nil, nil, fmt.Errorf("sample: the database is not migrated (run manage migrate): %w", err)
	}
	books, err := booksSource(db)
	if err != nil {
		return nil, nil, err
	}
	covers, err := queryset.NewSQL[bookCover](db, queryset.SQLConfig{})
	if err != nil {
		return nil, nil, err
	}
	users := &auth.Users{DB: db}
	devices := DeviceTokens
	devices.DB = db
	a := &app{
		devices: &devices,
		users:   users,
		tokens:  &authtoken.Tokens{DB: db},
		// LOGIN_REDIRECT_URL and LOGOUT_REDIRECT_URL are the contract's.
		sessions: &sessions.Manager{DB: db, Users: users, SecretKey: DevelopmentSecretKey, LoginRedirect: "/whoami/", LogoutRedirect: "/whoami/"},
		books:    books,
		covers:   covers,

		throttleCache: &cache.Memory{},
		allowedHosts:  DefaultAllowedHosts,
	}
	for _, opt := range opts {
		opt(a)
	}
	a.sessions.Logger = a.logger
	a.sessions.Compatibility = a.compat
	if a.users.Hashers == nil {
		// Django 5.2's, or Django 3.2's at 3.14 level.
		a.users.Hashers = auth.HashersFor(a.compat)
	}
	api := framework.NewAPI(db, a.settings())
	a.routes(api)
	return a, api, nil
}

// health is what /livez and /readyz check: the database, the throttle
// cache when it is Redis, and the Migrations.
func (a *app) health() health.Config {
	return health.Config{Stopping: a.stopping, Migrations: Migrations()}
}

// Schema is the generator of the API's OpenAPI documents, which /schema/
// serves and "manage generateschema" prints.
func Schema(api *framework.API) *schemas.Generator {
	return &schemas.Generator{API: api, Info: schemas.Info{Title: "Bookshelf API",
		Description: "The bookshelf sample of go-drf: books, and every authentication, pagination and versioning scheme."},
		Problems: isProblemRoute}
}

// Schemes of the views, built on the app's stores.
func (a *app) sessionAuth() authentication.Session {
	return authentication.Session{Sessions: a.sessions}
}
func (a *app) tokenAuth() authentication.Token { return authentication.Token{Tokens: a.tokens} }
func (a *app) basicAuth() authentication.Basic {
	return authentication.Basic{Users: auth.ModelBackend{Users: a.users}}
}
