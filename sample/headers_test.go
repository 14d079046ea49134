package sample_test

import "testing"

// TestRepeatedXUsernameHeader: the X-Username scheme reads a repeated
// header as DRF does under gunicorn, its lines joined by ",", so two
// names are no user (the reference's 403), not the first of them.
func TestRepeatedXUsernameHeader(t *testing.T) {
	c := serve(t, newDB(t))
	r := c.Get("/auth/header/", "X-Username: alice", "X-Username: admin")
	if r.Status != 403 || r.Body != `{"detail":"No such user"}` {
		t.Errorf("two X-Username lines: %d %s, want 403 No such user", r.Status, r.Body)
	}
	if r := c.Get("/auth/header/", "X-Username: alice"); r.Status != 200 || r.Body != `{"username":"alice"}` {
		t.Errorf("one X-Username line: %d %s", r.Status, r.Body)
	}
}
