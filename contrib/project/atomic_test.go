package project_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/apikey"
	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/contrib/hashedtoken"
	"github.com/go-drf/drf/contrib/sessions"
	"github.com/go-drf/drf/contrib/simplejwt"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// TestMain stops the PostgreSQL cluster the tests started.
func TestMain(m *testing.M) { os.Exit(testservers.Main(m)) }

// contribMigrations are the tables of the apps whose writes
// TestContribWritesJoinAtomicRequests makes.
var contribMigrations = slices.Concat(auth.Migrations, authtoken.Migrations, apikey.Migrations,
	hashedtoken.Migrations, sessions.Migrations, simplejwt.Migrations)

// TestContribWritesJoinAtomicRequests: under Settings.AtomicRequests the
// writes of contrib's apps made with the request's context join the
// request's transaction, as Django's models' writes join ATOMIC_REQUESTS'
// atomic block: a view that writes a row, then writes through an app,
// then fails leaves neither; one that answers keeps both. On a SQLite
// file, a PostgreSQL database and an in-memory SQLite (one connection,
// which the request's transaction holds) alike, no write waits for the
// request's own lock: each request has 2 s, less than SQLite's 5 s busy
// timeout, and must answer within them.
func TestContribWritesJoinAtomicRequests(t *testing.T) {
	testservers.FileDialects(t, testContribWritesJoin, contribMigrations...)
	t.Run("sqlite-memory", func(t *testing.T) {
		db, err := store.Open(":memory:")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = db.Close() })
		if _, err := migrations.Migrate(context.Background(), db, contribMigrations...); err != nil {
			t.Fatal(err)
		}
		testContribWritesJoin(t, db)
	})
}

// contribWrite is one app's writes in a view, and what they change.
type contribWrite struct {
	name string
	// write makes the app's writes for u with the request r.
	write func(r *request.Request, u *auth.User) error
	// state reads the rows write changes.
	state func(ctx context.Context, u *auth.User) string
}

func testContribWritesJoin(t *testing.T, db *sqlx.DB) {
	ctx := context.Background()
	db.MustExec(`CREATE TABLE "t" ("x" integer PRIMARY KEY)`)
	users := &auth.Users{DB: db, Hashers: auth.Hashers{auth.PBKDF2Hasher{Iterations: 1}}}
	count := func(ctx context.Context, q string, args ...any) int {
		var n int
		if err := db.GetContext(ctx, &n, db.Rebind(q), args...); err != nil {
			t.Fatal(err)
		}
		return n
	}
	newUser := func(name string) *auth.User {
		u, err := users.CreateUser(ctx, name, "", "pass-"+name)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}

	tokens := &authtoken.Tokens{DB: db}
	other, _, err := tokens.GetOrCreate(ctx, newUser("token-holder").ID)
	if err != nil {
		t.Fatal(err)
	}
	keys := &apikey.Keys{DB: db, Hashers: users.Hashers}
	oldKey, _, err := keys.Create(ctx, "old", nil)
	if err != nil {
		t.Fatal(err)
	}
	hashed := &hashedtoken.Tokens{DB: db}
	_, held, err := hashed.Create(ctx, newUser("hashed-holder").ID, "laptop")
	if err != nil {
		t.Fatal(err)
	}
	manager := &sessions.Manager{DB: db, Users: users, SecretKey: "secret", Logger: slog.New(slog.DiscardHandler)}
	jwt, err := simplejwt.New(db, users, "secret", simplejwt.Settings{TokenBlacklist: true})
	if err != nil {
		t.Fatal(err)
	}
	_, refresh, err := jwt.ForUser(ctx, newUser("jwt-holder"))
	if err != nil {
		t.Fatal(err)
	}

	writes := []contribWrite{{
		name: "auth",
		write: func(r *request.Request, u *auth.User) error {
			if err := users.SetPassword(r.Context(), u, "new-password"); err != nil {
				return err
			}
			if err := users.UpdateLastLogin(r.Context(), u); err != nil {
				return err
			}
			_, err := users.CreateUser(r.Context(), "made-"+u.Username, "", "pass")
			return err
		},
		state: func(ctx context.Context, u *auth.User) string {
			got, err := users.Get(ctx, u.ID)
			if err != nil {
				t.Fatal(err)
			}
			ok, _ := users.Hashers.Check("new-password", got.Password)
			return fmt.Sprint(ok, got.LastLogin != nil, count(ctx, `SELECT count(*) FROM "auth_user" WHERE "username" = ?`, "made-"+u.Username))
		},
	}, {
		name: "authtoken",
		write: func(r *request.Request, u *auth.User) error {
			if _, _, err := tokens.GetOrCreate(r.Context(), u.ID); err != nil {
				return err
			}
			return tokens.Delete(r.Context(), other.Key)
		},
		state: func(ctx context.Context, u *auth.User) string {
			return fmt.Sprint(count(ctx, `SELECT count(*) FROM "authtoken_token" WHERE "user_id" = ?`, u.ID),
				count(ctx, `SELECT count(*) FROM "authtoken_token" WHERE "key" = ?`, other.Key))
		},
	}, {
		name: "apikey",
		write: func(r *request.Request, u *auth.User) error {
			if _, _, err := keys.Create(r.Context(), "new-"+u.Username, nil); err != nil {
				return err
			}
			_, err := keys.Revoke(r.Context(), oldKey.Prefix)
			return err
		},
		state: func(ctx context.Context, u *auth.User) string {
			return fmt.Sprint(count(ctx, `SELECT count(*) FROM "rest_framework_api_key_apikey" WHERE "name" = ?`, "new-"+u.Username),
				count(ctx, `SELECT count(*) FROM "rest_framework_api_key_apikey" WHERE "revoked" AND "prefix" = ?`, oldKey.Prefix))
		},
	}, {
		name: "hashedtoken",
		write: func(r *request.Request, u *auth.User) error {
			if _, _, err := hashed.Create(r.Context(), u.ID, "phone"); err != nil {
				return err
			}
			return hashed.Revoke(r.Context(), held.UserID, held.ID)
		},
		state: func(ctx context.Context, u *auth.User) string {
			return fmt.Sprint(count(ctx, `SELECT count(*) FROM "hashedtoken_token" WHERE "user_id" = ?`, u.ID),
				count(ctx, `SELECT count(*) FROM "hashedtoken_token" WHERE "id" = ?`, held.ID))
		},
	}, {
		name: "sessions",
		write: func(r *request.Request, u *auth.User) error {
			return manager.Login(httptest.NewRecorder(), r.Request, u)
		},
		state: func(ctx context.Context, u *auth.User) string {
			got, err := users.Get(ctx, u.ID)
			if err != nil {
				t.Fatal(err)
			}
			return fmt.Sprint(count(ctx, `SELECT count(*) FROM "django_session"`), got.LastLogin != nil)
		},
	}, {
		name: "simplejwt",
		write: func(r *request.Request, u *auth.User) error {
			if _, _, err := jwt.ForUser(r.Context(), u); err != nil {
				return err
			}
			return jwt.Blacklist(r.Context(), refresh)
		},
		state: func(ctx context.Context, u *auth.User) string {
			return fmt.Sprint(count(ctx, `SELECT count(*) FROM "token_blacklist_outstandingtoken" WHERE "user_id" = ?`, u.ID),
				count(ctx, `SELECT count(*) FROM "token_blacklist_blacklistedtoken"`))
		},
	}}

	api := framework.NewAPI(db, framework.Settings{AtomicRequests: true, Authentication: framework.Authenticators(),
		Logger: slog.New(slog.DiscardHandler)})
	failed := errors.New("the view failed")
	for _, w := range writes {
		u := newUser("u-" + w.name)
		for _, fail := range []bool{true, false} {
			api.Handle(fmt.Sprintf("/%s/%v/", w.name, fail), framework.View{Post: func(_ *framework.View, r *request.Request) (*framework.Response, error) {
				err := store.InTx(r.Context(), db, func(tx *sqlx.Tx) error {
					_, err := tx.ExecContext(r.Context(), `INSERT INTO "t" ("x") VALUES (1)`)
					return err
				})
				if err == nil {
					err = w.write(r, u)
				}
				if err == nil && fail {
					err = failed
				}
				if err != nil {
					return nil, err
				}
				return &framework.Response{Status: http.StatusCreated}, nil
			}})
		}
		t.Run(w.name, func(t *testing.T) {
			before := w.state(ctx, u)
			for _, fail := range []bool{true, false} {
				db.MustExec(`DELETE FROM "t"`)
				rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
				rec := httptest.NewRecorder()
				api.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, fmt.Sprintf("/%s/%v/", w.name, fail), nil).WithContext(rctx))
				expired := rctx.Err()
				cancel()
				if expired != nil {
					t.Fatalf("fail=%v: the request's 2 s ran out (%v): a write waited for the request's lock", fail, expired)
				}
				rows := count(ctx, `SELECT count(*) FROM "t"`)
				after := w.state(ctx, u)
				switch {
				case fail && (rec.Code != http.StatusInternalServerError || rows != 0 || after != before):
					t.Errorf("failed view: %d, %d rows of t, app's rows %s (before %s): want 500, none, unchanged", rec.Code, rows, after, before)
				case !fail && (rec.Code != http.StatusCreated || rows != 1 || after == before):
					t.Errorf("view: %d %s, %d rows of t, app's rows %s (before %s): want 201, one, changed", rec.Code, rec.Body, rows, after, before)
				}
			}
		})
	}
}
