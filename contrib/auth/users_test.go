package auth_test

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/store"
)

// djangoAuthUser is auth_user's schema as the reference Django project
// leaves it in sqlite_master.
const djangoAuthUser = `CREATE TABLE "auth_user" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "password" varchar(128) NOT NULL, "last_login" datetime NULL, "is_superuser" bool NOT NULL, "username" varchar(150) NOT NULL UNIQUE, "last_name" varchar(150) NOT NULL, "email" varchar(254) NOT NULL, "is_staff" bool NOT NULL, "is_active" bool NOT NULL, "date_joined" datetime NOT NULL, "first_name" varchar(150) NOT NULL)`

// djangoAuthMigrations are Django 3.2's auth migrations.
var djangoAuthMigrations = []string{"0001_initial", "0002_alter_permission_name_max_length", "0003_alter_user_email_max_length",
	"0004_alter_user_username_opts", "0005_alter_user_last_login_null", "0006_require_contenttypes_0002",
	"0007_alter_validators_add_error_messages", "0008_alter_user_username_max_length", "0009_alter_user_last_name_max_length",
	"0010_alter_group_name_max_length", "0011_update_proxy_permissions", "0012_alter_user_first_name_max_length"}

func openDB(t *testing.T) *sqlx.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "db.sqlite3"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// migrated returns a store on a fresh, migrated database, with cheap hashes.
func migrated(t *testing.T) *auth.Users {
	t.Helper()
	db := openDB(t)
	if _, err := migrations.Migrate(context.Background(), db, auth.Migrations...); err != nil {
		t.Fatal(err)
	}
	return &auth.Users{DB: db, Hashers: auth.Hashers{auth.PBKDF2Hasher{Iterations: 1000}}}
}

func TestMigrationsCreateDjangosTable(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	applied, err := migrations.Migrate(ctx, db, auth.Migrations...)
	if err != nil {
		t.Fatal(err)
	}
	// Django's migrate order: contenttypes first, auth's tables refer to it.
	want := []string{"contenttypes.0001_initial", "contenttypes.0002_remove_content_type_name"}
	for _, name := range djangoAuthMigrations {
		want = append(want, "auth."+name)
	}
	if !reflect.DeepEqual(applied, want) {
		t.Errorf("applied = %v, want %v", applied, want)
	}
	var schema string
	if err := db.Get(&schema, `SELECT sql FROM sqlite_master WHERE name = 'auth_user'`); err != nil {
		t.Fatal(err)
	}
	if schema != djangoAuthUser {
		t.Errorf("schema:\n%s\nwant:\n%s", schema, djangoAuthUser)
	}
	var rec struct {
		App  string `db:"app"`
		Name string `db:"name"`
	}
	if err := db.Get(&rec, `SELECT app, name FROM django_migrations ORDER BY id LIMIT 1`); err != nil || rec.App != "contenttypes" || rec.Name != "0001_initial" {
		t.Errorf("record = %+v, %v", rec, err)
	}
}

// A database that Django migrated and seeded: Migrate leaves it alone and
// the users Django wrote are read and authenticated.
func TestDjangoDatabaseIsServedAsIs(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	db.MustExec(`CREATE TABLE "django_migrations" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "app" varchar(255) NOT NULL, "name" varchar(255) NOT NULL, "applied" datetime NOT NULL)`)
	// What Django 3.2's migrate records of contenttypes and auth.
	for _, m := range []string{"contenttypes 0001_initial", "contenttypes 0002_remove_content_type_name"} {
		app, name, _ := strings.Cut(m, " ")
		db.MustExec(`INSERT INTO django_migrations (app, name, applied) VALUES (?, ?, '2026-11-22 19:03:05.375514')`, app, name)
	}
	for _, name := range djangoAuthMigrations {
		db.MustExec(`INSERT INTO django_migrations (app, name, applied) VALUES ('auth', ?, '2026-11-22 19:03:05.375514')`, name)
	}
	db.MustExec(djangoAuthUser)
	// Rows as Django's seed command wrote them.
	db.MustExec(`INSERT INTO auth_user VALUES (1, 'pbkdf2_sha256$260000$amxjT74hLANIkNTgX8C9P5$6TQbBX7kwr0WNXy3ThkFdBPCkiAutshIwBIVL86vJoQ=', NULL, 1, 'admin', '', '', 1, 1, '2026-11-22 19:03:06.199105', '')`)
	db.MustExec(`INSERT INTO auth_user VALUES (3, 'pbkdf2_sha256$260000$kcDuqVP1XJmicAPGGNmMpE$qlv/DqaEMct5IoRgK+hT7O8f8WWVIFUB7vsQEeNsAI8=', '2026-11-22 19:05:00', 0, 'bob', 'B', 'Bee', 0, 0, '2026-11-22 19:03:06.329329', 'Bob')`)
	applied, err := migrations.Migrate(ctx, db, auth.Migrations...)
	if err != nil || len(applied) != 0 {
		t.Fatalf("Migrate on a Django database applied %v, %v", applied, err)
	}
	users := &auth.Users{DB: db}
	admin, err := users.Authenticate(ctx, "admin", "admin-pass")
	if err != nil {
		t.Fatal(err)
	}
	want := auth.User{ID: 1, Password: admin.Password, Superuser: true, Username: "admin", Staff: true, Active: true,
		DateJoined: time.Date(2026, 11, 22, 19, 3, 6, 199105000, time.UTC)}
	want.BindDB(db)
	if !reflect.DeepEqual(*admin, want) {
		t.Errorf("admin = %+v\nwant %+v", *admin, want)
	}
	if _, err := users.Authenticate(ctx, "admin", "Admin-pass"); err != auth.ErrInvalidCredentials {
		t.Errorf("wrong password: %v", err)
	}
	bob, err := users.GetByUsername(ctx, "bob")
	if err != nil {
		t.Fatal(err)
	}
	if bob.Active || bob.FirstName != "Bob" || bob.LastName != "B" || bob.Email != "Bee" ||
		bob.LastLogin == nil || !bob.LastLogin.Equal(time.Date(2026, 11, 22, 19, 5, 0, 0, time.UTC)) {
		t.Errorf("bob = %+v", *bob)
	}
}

func TestCreateAndLookups(t *testing.T) {
	users := migrated(t)
	ctx := context.Background()
	before := time.Now().UTC().Add(-time.Second)
	u := &auth.User{Username: "alice", Email: "Alice@Example.COM", FirstName: "Alice", Active: true}
	if err := users.Create(ctx, u, "alice-pass"); err != nil {
		t.Fatal(err)
	}
	if u.ID != 1 || !strings.HasPrefix(u.Password, "pbkdf2_sha256$1000$") || u.Email != "Alice@example.com" {
		t.Errorf("created %+v", *u)
	}
	if u.DateJoined.Before(before) || u.DateJoined.Location() != time.UTC {
		t.Errorf("DateJoined = %v", u.DateJoined)
	}
	byID, err := users.Get(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(byID, u) {
		t.Errorf("Get = %+v\nwant %+v", *byID, *u)
	}
	byName, err := users.GetByUsername(ctx, "alice")
	if err != nil || !reflect.DeepEqual(byName, u) {
		t.Errorf("GetByUsername = %+v, %v", byName, err)
	}
	// Stored the way Django stores it.
	var raw struct {
		Joined string `db:"j"`
		Active int    `db:"a"`
	}
	if err := users.DB.Get(&raw, `SELECT CAST(date_joined AS text) AS j, CAST(is_active AS integer) AS a FROM auth_user`); err != nil {
		t.Fatal(err)
	}
	if raw.Joined != store.FormatTime(u.DateJoined) || raw.Active != 1 {
		t.Errorf("stored date_joined %q, is_active %d", raw.Joined, raw.Active)
	}
	for _, err := range []error{
		func() error { _, err := users.Get(ctx, 99); return err }(),
		func() error { _, err := users.GetByUsername(ctx, "Alice"); return err }(),
	} {
		if err != auth.ErrNotFound {
			t.Errorf("lookup of a missing user: %v, want ErrNotFound", err)
		}
	}
	if err := users.Create(ctx, &auth.User{Username: "alice"}, "x"); !errors.Is(err, auth.ErrUsernameTaken) {
		t.Errorf("duplicate: %v, want ErrUsernameTaken", err)
	}
	if err := users.Create(ctx, &auth.User{}, "x"); err == nil {
		t.Error("a user without a username was created")
	}
}

func TestCreateUserAndSuperuser(t *testing.T) {
	users := migrated(t)
	ctx := context.Background()
	alice, err := users.CreateUser(ctx, "alice", "", "alice-pass")
	if err != nil {
		t.Fatal(err)
	}
	if !alice.Active || alice.Staff || alice.Superuser {
		t.Errorf("alice = %+v", *alice)
	}
	admin, err := users.CreateSuperuser(ctx, "admin", "", "admin-pass")
	if err != nil {
		t.Fatal(err)
	}
	if !admin.Active || !admin.Staff || !admin.Superuser {
		t.Errorf("admin = %+v", *admin)
	}
	if _, err := users.CreateSuperuser(ctx, "admin", "", "x"); !errors.Is(err, auth.ErrUsernameTaken) {
		t.Errorf("duplicate superuser: %v", err)
	}
}

func TestAuthenticate(t *testing.T) {
	users := migrated(t)
	ctx := context.Background()
	if _, err := users.CreateUser(ctx, "alice", "", "alice-pass"); err != nil {
		t.Fatal(err)
	}
	if err := users.Create(ctx, &auth.User{Username: "bob"}, "bob-pass"); err != nil {
		t.Fatal(err)
	}
	if _, err := users.CreateUser(ctx, "nopass", "", ""); err != nil {
		t.Fatal(err)
	}
	u, err := users.Authenticate(ctx, "alice", "alice-pass")
	if err != nil || u.Username != "alice" {
		t.Fatalf("alice: %v, %v", u, err)
	}
	for _, c := range [][2]string{
		{"alice", "wrong"}, {"alice", ""}, {"ALICE", "alice-pass"},
		{"nobody", "alice-pass"}, {"", ""},
		{"bob", "bob-pass"}, // inactive
		{"nopass", ""}, {"nopass", "!"},
	} {
		if u, err := users.Authenticate(ctx, c[0], c[1]); err != auth.ErrInvalidCredentials || u != nil {
			t.Errorf("Authenticate(%q, %q) = %v, %v; want ErrInvalidCredentials", c[0], c[1], u, err)
		}
	}
}

func TestSetPasswordAndLastLogin(t *testing.T) {
	users := migrated(t)
	ctx := context.Background()
	u, err := users.CreateUser(ctx, "alice", "", "old")
	if err != nil {
		t.Fatal(err)
	}
	if u.LastLogin != nil {
		t.Errorf("new user has LastLogin %v", u.LastLogin)
	}
	if err := users.SetPassword(ctx, u, "new"); err != nil {
		t.Fatal(err)
	}
	if _, err := users.Authenticate(ctx, "alice", "old"); err != auth.ErrInvalidCredentials {
		t.Errorf("old password: %v", err)
	}
	if _, err := users.Authenticate(ctx, "alice", "new"); err != nil {
		t.Errorf("new password: %v", err)
	}
	if err := users.UpdateLastLogin(ctx, u); err != nil {
		t.Fatal(err)
	}
	got, err := users.Get(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.LastLogin == nil || !got.LastLogin.Equal(*u.LastLogin) || time.Since(*got.LastLogin) > time.Minute {
		t.Errorf("LastLogin = %v, want %v", got.LastLogin, u.LastLogin)
	}
	gone := &auth.User{ID: 42}
	if err := users.SetPassword(ctx, gone, "x"); err != auth.ErrNotFound {
		t.Errorf("SetPassword of a missing user: %v", err)
	}
	if err := users.UpdateLastLogin(ctx, gone); err != auth.ErrNotFound {
		t.Errorf("UpdateLastLogin of a missing user: %v", err)
	}
}

func TestCreateHooksRunInTheTransaction(t *testing.T) {
	users := migrated(t)
	ctx := context.Background()
	users.DB.MustExec(`CREATE TABLE "profile" ("user_id" integer NOT NULL UNIQUE REFERENCES "auth_user" ("id"), "n" integer NOT NULL)`)
	var order []string
	users.OnCreate(func(ctx context.Context, tx *sqlx.Tx, u *auth.User) error {
		order = append(order, "first:"+u.Username)
		_, err := tx.ExecContext(ctx, `INSERT INTO profile VALUES (?, 1)`, u.ID)
		return err
	})
	boom := errors.New("boom")
	users.OnCreate(func(ctx context.Context, tx *sqlx.Tx, u *auth.User) error {
		order = append(order, "second:"+u.Username)
		if u.Username == "bad" {
			return boom
		}
		return nil
	})
	if _, err := users.CreateUser(ctx, "alice", "", "pw"); err != nil {
		t.Fatal(err)
	}
	u := &auth.User{Username: "bad", Active: true}
	if err := users.Create(ctx, u, "pw"); err != boom {
		t.Fatalf("Create with a failing hook: %v, want boom", err)
	}
	if u.ID != 0 || u.Password != "" {
		t.Errorf("failed Create changed u: %+v", *u)
	}
	if want := []string{"first:alice", "second:alice", "first:bad", "second:bad"}; !reflect.DeepEqual(order, want) {
		t.Errorf("hook order %v, want %v", order, want)
	}
	var names []string
	if err := users.DB.Select(&names, `SELECT username FROM auth_user ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	var profiles int
	if err := users.DB.Get(&profiles, `SELECT count(*) FROM profile`); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(names, []string{"alice"}) || profiles != 1 {
		t.Errorf("users %v, profiles %d; want only alice's", names, profiles)
	}
}

func TestConcurrentCreateOfOneUsername(t *testing.T) {
	users := migrated(t)
	ctx := context.Background()
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		go func() {
			_, err := users.CreateUser(ctx, "racer", "", "pw")
			errs <- err
		}()
	}
	created := 0
	for i := 0; i < 8; i++ {
		switch err := <-errs; {
		case err == nil:
			created++
		case !errors.Is(err, auth.ErrUsernameTaken):
			t.Errorf("unexpected error %v", err)
		}
	}
	if created != 1 {
		t.Errorf("%d creations succeeded, want 1", created)
	}
}

// A login with a hash the first hasher would not write stores a new one,
// as Django's check_password does; the old hash no longer exists.
func TestAuthenticateUpgradesTheHash(t *testing.T) {
	users := migrated(t)
	ctx := context.Background()
	for name, encoded := range map[string]string{
		"argon":  "argon2$argon2i$v=19$m=512,t=1,p=2$c2Vhc2FsdHNlYXNhbHQ$k/sVC1ThSUCcDdDlNQSAvg",
		"sha1":   "pbkdf2_sha1$1000$seasaltseasaltseasalt1$yT/H49wWGgd4CFZw6J/qiyXyeAQ=",
		"legacy": "pbkdf2_sha256$150000$sFxLPLngYgPJ5Zd53zFjGS$ybpiM+4Yfcji1YVdDJLRbrTjNyuUUX6/XTl6K+eING4=",
	} {
		users.DB.MustExec(`INSERT INTO auth_user (password, is_superuser, username, last_name, email, is_staff, is_active, date_joined, first_name) VALUES (?, 0, ?, '', '', 0, 1, '2026-01-01 00:00:00', '')`, encoded, name)
	}
	users.Hashers = auth.Hashers{auth.PBKDF2Hasher{Iterations: 1000}, auth.PBKDF2SHA1Hasher{}, auth.Argon2Hasher{}}
	for name, password := range map[string]string{"argon": "letmein", "sha1": "lètmein", "legacy": "s3cret ünïcode"} {
		if _, err := users.Authenticate(ctx, name, "wrong"); err != auth.ErrInvalidCredentials {
			t.Errorf("%s, wrong password: %v", name, err)
		}
		before, _ := users.GetByUsername(ctx, name)
		u, err := users.Authenticate(ctx, name, password)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		stored, _ := users.GetByUsername(ctx, name)
		if stored.Password == before.Password || !strings.HasPrefix(stored.Password, "pbkdf2_sha256$1000$") || u.Password != stored.Password {
			t.Errorf("%s: stored %q (was %q), returned %q; want a new pbkdf2_sha256$1000$ hash", name, stored.Password, before.Password, u.Password)
		}
		if _, err := users.Authenticate(ctx, name, password); err != nil {
			t.Errorf("%s after the upgrade: %v", name, err)
		}
		if again, _ := users.GetByUsername(ctx, name); again.Password != stored.Password {
			t.Errorf("%s: a current hash was rehashed", name)
		}
	}
}

// Unknown users, unusable passwords, wrong passwords and inactive users
// cost the same: one hash by the first hasher.
func TestAuthenticateCostsOneHashEachWay(t *testing.T) {
	users := migrated(t)
	ctx := context.Background()
	var work atomic.Int64
	users.Hashers = auth.Hashers{workHasher{auth.PBKDF2Hasher{Iterations: 1000}, &work}}
	if _, err := users.CreateUser(ctx, "alice", "", "alice-pass"); err != nil {
		t.Fatal(err)
	}
	if _, err := users.CreateUser(ctx, "nopass", "", ""); err != nil {
		t.Fatal(err)
	}
	if err := users.Create(ctx, &auth.User{Username: "bob"}, "bob-pass"); err != nil {
		t.Fatal(err)
	}
	for _, c := range [][2]string{{"alice", "alice-pass"}, {"alice", "wrong"}, {"nobody", "x"}, {"nopass", "x"}, {"bob", "bob-pass"}, {"bob", "x"}} {
		work.Store(0)
		_, _ = users.Authenticate(ctx, c[0], c[1])
		if got := work.Load(); got != 1000 {
			t.Errorf("Authenticate(%q, %q) ran %d iterations, want 1000", c[0], c[1], got)
		}
	}
}
