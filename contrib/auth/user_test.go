package auth_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework/request"
)

func TestUserImplementsRequestUser(t *testing.T) {
	var u request.User = &auth.User{Username: "admin", Active: true, Staff: true, Superuser: true}
	if u.GetUsername() != "admin" || !u.IsAuthenticated() || !u.IsActive() || !u.IsStaff() {
		t.Errorf("admin: %q %v %v %v", u.GetUsername(), u.IsAuthenticated(), u.IsActive(), u.IsStaff())
	}
	bob := &auth.User{Username: "bob"}
	if !bob.IsAuthenticated() || bob.IsActive() || bob.IsStaff() || bob.IsSuperuser() {
		t.Errorf("bob: %v %v %v %v", bob.IsAuthenticated(), bob.IsActive(), bob.IsStaff(), bob.IsSuperuser())
	}
}

func TestUserJSONHasNoPassword(t *testing.T) {
	u := auth.User{ID: 1, Username: "alice", Password: "pbkdf2_sha256$260000$salt$hash", Active: true,
		DateJoined: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
	b, err := json.Marshal(u)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "pbkdf2") || strings.Contains(string(b), "password") {
		t.Errorf("JSON leaks the password: %s", b)
	}
	want := `{"id":1,"last_login":null,"is_superuser":false,"username":"alice","first_name":"","last_name":"","email":"","is_staff":false,"is_active":true,"date_joined":"2024-01-01T00:00:00Z"}`
	if string(b) != want {
		t.Errorf("JSON = %s\nwant %s", b, want)
	}
}

func TestValidateUsername(t *testing.T) {
	for _, ok := range []string{"alice", "a.b@c+d-e_f", "ünïcode", "x1", strings.Repeat("a", 150)} {
		if err := auth.ValidateUsername(ok); err != nil {
			t.Errorf("ValidateUsername(%q) = %v", ok, err)
		}
	}
	cases := map[string]string{
		"":                       "This field cannot be blank.",
		"with space":             "Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.",
		"semi;colon":             "Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.",
		strings.Repeat("é", 151): "Ensure this value has at most 150 characters (it has 151).",
	}
	for name, want := range cases {
		if err := auth.ValidateUsername(name); err == nil || err.Error() != want {
			t.Errorf("ValidateUsername(%q) = %v, want %q", name, err, want)
		}
	}
}
