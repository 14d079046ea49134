package main

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/go-drf/drf/framework/store"
)

// TestCreateSuperuserRefusesALookAlike is `manage createsuperuser
// --username ａｄｍｉｎ` (fullwidth) where admin exists: refused with Django's
// message for a taken name, where it used to create a second superuser
// that looks like admin.
func TestCreateSuperuserRefusesALookAlike(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db.sqlite3")
	if _, stderr, code := run(t, dir, "--database", db, "migrate"); code != 0 {
		t.Fatalf("migrate: exit %d: %s", code, stderr)
	}
	if stdout, stderr, code := run(t, dir, "--database", db, "createsuperuser", "--noinput", "--username", "admin", "--email", "admin@example.com"); code != 0 {
		t.Fatalf("createsuperuser admin: exit %d, %q %s", code, stdout, stderr)
	}
	stdout, stderr, code := run(t, dir, "--database", db, "createsuperuser", "--noinput", "--username", "ａｄｍｉｎ", "--email", "evil@example.com")
	if code != 1 || stdout != "" || stderr != "CommandError: Error: That username is already taken.\n" {
		t.Errorf("createsuperuser ａｄｍｉｎ: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	conn, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var names []string
	if err := conn.SelectContext(context.Background(), &names, `SELECT "username" FROM "auth_user" WHERE "is_superuser"`); err != nil {
		t.Fatal(err)
	}
	if len(names) != 1 || names[0] != "admin" {
		t.Errorf("superusers %q, want admin alone", names)
	}
}
