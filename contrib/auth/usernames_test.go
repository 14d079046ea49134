package auth_test

import (
	"context"
	"errors"
	"testing"

	"github.com/go-drf/drf/contrib/auth"
)

func TestNormalizeUsername(t *testing.T) {
	for in, want := range map[string]string{
		"admin":        "admin",
		"ａｄｍｉｎ":        "admin",
		"ﬁona":         "fiona",        // a ligature
		"\u212Bsa":     "\u00C5sa",     // the Angstrom sign is Å
		"Jose\u0301":   "Jos\u00E9",    // composed
		"user²":        "user2",        // a superscript
		"Ⅻ":            "XII",          // a Roman numeral
		"ｶﾀｶﾅ":         "カタカナ",         // halfwidth katakana
		"Alice@Ex.org": "Alice@Ex.org", // case is kept
	} {
		if got := auth.NormalizeUsername(in); got != want {
			t.Errorf("NormalizeUsername(%q) = %q, want %q", in, got, want)
		}
	}
}

// Users are created under the NFKC form of their name, as Django's
// create_user creates them: a look-alike of a taken name is taken, and the
// user logs in with the normalized name, not with the one typed at
// creation (ModelBackend looks the name up as given).
func TestCreateNormalizesTheUsername(t *testing.T) {
	users := migrated(t)
	ctx := context.Background()
	alice, err := users.CreateUser(ctx, "ａｌｉｃｅ", "", "alice-pass")
	if err != nil {
		t.Fatal(err)
	}
	if alice.Username != "alice" {
		t.Errorf("created %q, want alice", alice.Username)
	}
	var stored string
	if err := users.DB.Get(&stored, `SELECT username FROM auth_user WHERE id = ?`, alice.ID); err != nil || stored != "alice" {
		t.Errorf("stored %q (%v), want alice", stored, err)
	}
	if u, err := users.Authenticate(ctx, "alice", "alice-pass"); err != nil || u.ID != alice.ID {
		t.Errorf("Authenticate(alice) = %v, %v", u, err)
	}
	if _, err := users.Authenticate(ctx, "ａｌｉｃｅ", "alice-pass"); err != auth.ErrInvalidCredentials {
		t.Errorf("Authenticate with the fullwidth name: %v, want ErrInvalidCredentials (as ModelBackend)", err)
	}
	if _, err := users.GetByUsername(ctx, "ａｌｉｃｅ"); err != auth.ErrNotFound {
		t.Errorf("GetByUsername with the fullwidth name: %v, want ErrNotFound (as get_by_natural_key)", err)
	}
	for _, name := range []string{"alice", "ａlice", "ａｌｉｃｅ"} {
		if _, err := users.CreateUser(ctx, name, "", "x"); !errors.Is(err, auth.ErrUsernameTaken) {
			t.Errorf("CreateUser(%q) after alice: %v, want ErrUsernameTaken", name, err)
		}
	}
	if _, err := users.CreateSuperuser(ctx, "ａｄｍｉｎ", "", "x"); err != nil {
		t.Fatal(err)
	}
	if _, err := users.CreateSuperuser(ctx, "admin", "", "x"); !errors.Is(err, auth.ErrUsernameTaken) {
		t.Errorf("admin after ａｄｍｉｎ: %v, want ErrUsernameTaken", err)
	}
	bob := &auth.User{Username: "ｂｏｂ"}
	if err := users.Create(ctx, bob, "bob-pass"); err != nil || bob.Username != "bob" {
		t.Errorf("Create: %q, %v; want bob", bob.Username, err)
	}
}

// createsuperuser refuses a look-alike of an existing superuser's name,
// with and without prompts, and creates a free one under its NFKC form.
// Django refuses the look-alike too, but only when the insert fails on the
// unique username (an IntegrityError's traceback); here it is refused as
// taken, with Django's message for a taken name.
func TestCreateSuperuserRefusesALookAlike(t *testing.T) {
	path, users := superuserDB(t)
	users.Hashers = auth.Hashers{auth.PBKDF2Hasher{Iterations: 1000}}
	ctx := context.Background()
	if _, err := users.CreateSuperuser(ctx, "admin", "admin@example.com", "admin-pass"); err != nil {
		t.Fatal(err)
	}
	created := 0
	cmd := auth.CreateSuperuserCommand(cheapUsers(&created))
	vars := map[string]string{"DJANGO_SUPERUSER_PASSWORD": "evil-pass"}
	r := run(t, vars, "", []string{"--database", path, "createsuperuser", "--noinput", "--username", "ａｄｍｉｎ", "--email", "evil@example.com"}, cmd)
	if r.code != 1 || r.stderr != "CommandError: Error: That username is already taken.\n" || r.stdout != "" {
		t.Errorf("--noinput ａｄｍｉｎ: exit %d, stdout %q, stderr %q; want Django's refusal", r.code, r.stdout, r.stderr)
	}
	// Prompted, the look-alike is refused and asked again.
	r = run(t, nil, "ａｄｍｉｎ\nａdmin\nboss\n\npw\npw\n", []string{"--database", path, "createsuperuser"}, cmd)
	taken := "Error: That username is already taken.\n"
	if r.code != 0 || r.stderr != taken+taken {
		t.Errorf("prompted: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	// A free look-alike is stored in its NFKC form.
	r = run(t, vars, "", []string{"--database", path, "createsuperuser", "--noinput", "--username", "ｒｏｏｔ", "--email", "root@example.com"}, cmd)
	if r.code != 0 || r.stdout != "Superuser created successfully.\n" {
		t.Errorf("ｒｏｏｔ: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	var names []string
	if err := users.DB.Select(&names, `SELECT username FROM auth_user WHERE is_superuser ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	if len(names) != 3 || names[0] != "admin" || names[1] != "boss" || names[2] != "root" || created != 2 {
		t.Errorf("superusers %q (%d created), want admin, boss, root", names, created)
	}
	if _, err := users.Authenticate(ctx, "root", "evil-pass"); err != nil {
		t.Errorf("root logs in with the normalized name: %v", err)
	}
}

// RemoteUserBackend creates a user named exactly as the proxy names it,
// as Django's get_or_create does, and finds it again by that name: a
// look-alike of a user is another user, never that one.
func TestRemoteUserKeepsTheProxysName(t *testing.T) {
	users := migrated(t)
	ctx := context.Background()
	admin, err := users.CreateSuperuser(ctx, "admin", "", "admin-pass")
	if err != nil {
		t.Fatal(err)
	}
	b := auth.RemoteUserBackend{Users: users}
	first, err := b.RemoteUser(ctx, "ａｄｍｉｎ", true)
	if err != nil {
		t.Fatal(err)
	}
	u := first.(*auth.User)
	if u.ID == admin.ID || u.Username != "ａｄｍｉｎ" || u.Superuser || !u.Active {
		t.Fatalf("remote ａｄｍｉｎ = %+v, want a new, plain user of that name", *u)
	}
	again, err := b.RemoteUser(ctx, "ａｄｍｉｎ", true)
	if err != nil || again.(*auth.User).ID != u.ID {
		t.Errorf("second request: %v, %v; want user %d", again, err, u.ID)
	}
}
