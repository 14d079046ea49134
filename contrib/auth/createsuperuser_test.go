package auth_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework/management"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/store"
)

// superuserDB returns a migrated database file and a store on it.
func superuserDB(t *testing.T) (string, *auth.Users) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "db.sqlite3")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := migrations.Migrate(context.Background(), db, auth.Migrations...); err != nil {
		t.Fatal(err)
	}
	return path, &auth.Users{DB: db}
}

// cheapUsers creates users with fast hashes and counts them with a hook.
func cheapUsers(created *int) func(ctx context.Context, env *management.Env) (*auth.Users, error) {
	return func(ctx context.Context, env *management.Env) (*auth.Users, error) {
		db, err := env.DB()
		if err != nil {
			return nil, err
		}
		u := &auth.Users{DB: db, Hashers: auth.Hashers{auth.PBKDF2Hasher{Iterations: 1000}}}
		u.OnCreate(func(ctx context.Context, tx *sqlx.Tx, _ *auth.User) error {
			*created++
			return nil
		})
		return u, nil
	}
}

func TestCreateSuperuserNoInput(t *testing.T) {
	path, users := superuserDB(t)
	ctx := context.Background()
	created := 0
	cmd := auth.CreateSuperuserCommand(cheapUsers(&created))
	vars := map[string]string{"DJANGO_SUPERUSER_PASSWORD": "admin-pass"}
	r := run(t, vars, "", []string{"--database", path, "createsuperuser", "--noinput", "--username", "admin", "--email", "admin@example.com"}, cmd)
	if r.code != 0 || r.stdout != "Superuser created successfully.\n" || r.stderr != "" || created != 1 {
		t.Fatalf("exit %d, stdout %q, stderr %q, hooks %d", r.code, r.stdout, r.stderr, created)
	}
	u, err := users.Authenticate(ctx, "admin", "admin-pass")
	if err != nil {
		t.Fatal(err)
	}
	if !u.Superuser || !u.Staff || !u.Active || u.Email != "admin@example.com" {
		t.Errorf("admin = %+v", *u)
	}

	// Names from the environment; no password gives an unusable one.
	vars = map[string]string{"DJANGO_SUPERUSER_USERNAME": "root", "DJANGO_SUPERUSER_EMAIL": "root@example.com"}
	r = run(t, vars, "", []string{"--database", path, "createsuperuser", "--no-input"}, cmd)
	if r.code != 0 || r.stdout != "Superuser created successfully.\n" {
		t.Fatalf("from environment: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	root, err := users.GetByUsername(ctx, "root")
	if err != nil || !strings.HasPrefix(root.Password, "!") {
		t.Errorf("root = %+v, %v; want an unusable password", root, err)
	}

	for _, c := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"--username", "admin", "--email", "a@b.c"}, "CommandError: Error: That username is already taken.\n"},
		{[]string{"--email", "a@b.c"}, "CommandError: You must use --username with --noinput.\n"},
		{[]string{"--username", "new"}, "CommandError: You must use --email with --noinput.\n"},
		{[]string{"--username", "new", "--email", "nope"}, "CommandError: Enter a valid email address.\n"},
		{[]string{"--username", "bad name", "--email", "a@b.c"}, "CommandError: Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.\n"},
	} {
		args := append([]string{"--database", path, "createsuperuser", "--noinput"}, c.args...)
		r := run(t, nil, "", args, cmd)
		if r.code != 1 || r.stderr != c.stderr || r.stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %q", c.args, r.code, r.stdout, r.stderr, c.stderr)
		}
	}
	var n int
	if err := users.DB.Get(&n, `SELECT count(*) FROM auth_user`); err != nil || n != 2 {
		t.Errorf("%d users, want 2", n)
	}
}

func TestCreateSuperuserPrompts(t *testing.T) {
	path, users := superuserDB(t)
	ctx := context.Background()
	if _, err := users.CreateUser(ctx, "taken", "", "x"); err != nil {
		t.Fatal(err)
	}
	created := 0
	cmd := auth.CreateSuperuserCommand(cheapUsers(&created))
	// $USER is taken, so no default is offered.
	stdin := "taken\nbad name\n\nboss\nnot-an-email\nboss@EXAMPLE.com\npw1\npw2\n \n \ns3cret\ns3cret\n"
	r := run(t, map[string]string{"USER": "Taken"}, stdin, []string{"--database", path, "createsuperuser"}, cmd)
	if r.code != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	wantErr := "Error: That username is already taken.\n" +
		"Error: Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.\n" +
		"Error: This field cannot be blank.\n" +
		"Error: Enter a valid email address.\n" +
		"Error: Your passwords didn't match.\n" +
		"Error: Blank passwords aren't allowed.\n"
	if r.stderr != wantErr {
		t.Errorf("stderr:\n%s\nwant:\n%s", r.stderr, wantErr)
	}
	wantOut := strings.Repeat("Username: ", 4) + strings.Repeat("Email address: ", 2) +
		strings.Repeat("Password: Password (again): ", 3) + "Superuser created successfully.\n"
	if r.stdout != wantOut {
		t.Errorf("stdout %q\nwant   %q", r.stdout, wantOut)
	}
	boss, err := users.Authenticate(ctx, "boss", "s3cret")
	if err != nil || !boss.Superuser || boss.Email != "boss@example.com" || created != 1 {
		t.Errorf("boss = %+v, %v, hooks %d", boss, err, created)
	}
}

func TestCreateSuperuserPromptDefaultsAndFlags(t *testing.T) {
	path, users := superuserDB(t)
	ctx := context.Background()
	created := 0
	cmd := auth.CreateSuperuserCommand(cheapUsers(&created))
	r := run(t, map[string]string{"USER": "Chief"}, "\n\npw\npw", []string{"--database", path, "createsuperuser"}, cmd)
	want := "Username (leave blank to use 'chief'): Email address: Password: Password (again): Superuser created successfully.\n"
	if r.code != 0 || r.stdout != want {
		t.Errorf("default: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if _, err := users.Authenticate(ctx, "chief", "pw"); err != nil {
		t.Errorf("chief: %v", err)
	}
	// Flags skip their prompts.
	r = run(t, nil, "pw\npw\n", []string{"--database", path, "createsuperuser", "--username", "flagged", "--email", "f@x.org"}, cmd)
	if r.code != 0 || r.stdout != "Password: Password (again): Superuser created successfully.\n" {
		t.Errorf("flags: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	r = run(t, nil, "", []string{"--database", path, "createsuperuser", "--username", ""}, cmd)
	if r.code != 1 || r.stderr != "CommandError: Username cannot be blank.\n" {
		t.Errorf("blank flag: exit %d, stderr %q", r.code, r.stderr)
	}
	// End of input cancels.
	r = run(t, nil, "someone\n", []string{"--database", path, "createsuperuser"}, cmd)
	if r.code != 1 || r.stderr != "CommandError: Operation cancelled.\n" {
		t.Errorf("EOF: exit %d, stderr %q", r.code, r.stderr)
	}
	if created != 2 {
		t.Errorf("%d users created, want 2", created)
	}
}

type result struct {
	code           int
	stdout, stderr string
}

// run executes args with cmd, the input stdin and the environment vars.
func run(t *testing.T, vars map[string]string, stdin string, args []string, cmd management.Command) result {
	t.Helper()
	var out, errOut strings.Builder
	env := &management.Env{Stdout: &out, Stderr: &errOut, Stdin: strings.NewReader(stdin), Getenv: func(k string) string { return vars[k] }}
	code := management.Execute(context.Background(), env, args, cmd)
	return result{code, out.String(), errOut.String()}
}
