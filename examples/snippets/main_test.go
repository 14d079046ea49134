package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/store"
)

// service is the tutorial's API on a fresh, migrated SQLite database with
// the users alice and bob, and a client for each.
func service(t *testing.T) (alice, bob, anon *apitest.Client) {
	t.Helper()
	db, err := store.Open("sqlite:///" + filepath.Join(t.TempDir(), "db.sqlite3"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	migs, err := Project.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := migrations.Migrate(ctx, db, migs...); err != nil {
		t.Fatal(err)
	}
	users := &auth.Users{DB: db}
	for _, name := range []string{"alice", "bob"} {
		if _, err := users.CreateUser(ctx, name, name+"@example.com", "pw-"+name); err != nil {
			t.Fatal(err)
		}
	}
	h, err := Project.Handler(db, "test-secret-key")
	if err != nil {
		t.Fatal(err)
	}
	alice, bob, anon = apitest.New(t, h), apitest.New(t, h), apitest.New(t, h)
	if !alice.Login("alice", "pw-alice") || !bob.Login("bob", "pw-bob") {
		t.Fatal("the users cannot log in")
	}
	return alice, bob, anon
}

const (
	jsonBody = "Content-Type: application/json"
	snippet1 = `{"url":"http://testserver/snippets/1/","id":1,"highlight":"http://testserver/snippets/1/highlight/",` +
		`"owner":"alice","title":"","code":"print(\"hello\")","linenos":false,"language":"python","style":"friendly"}`
)

// Parts 1 to 6 of the tutorial, as DRF answers them.
func TestTutorial(t *testing.T) {
	alice, bob, anon := service(t)
	// Part 4: only users create, and a snippet belongs to its creator;
	// the model's defaults fill in what the request leaves out.
	if r := anon.Post("/snippets/", `{"code":"x"}`, jsonBody); r.Status != 403 ||
		r.Body != `{"detail":"Authentication credentials were not provided."}` {
		t.Errorf("anonymous create: %d %s", r.Status, r.Body)
	}
	if r := alice.Post("/snippets/", `{"code":"print(\"hello\")"}`, jsonBody, "X-CSRFToken: "+alice.Cookie("csrftoken")); r.Status != 201 || r.Body != snippet1 {
		t.Errorf("create: %d %s", r.Status, r.Body)
	}
	if r := anon.Get("/snippets/1/"); r.Status != 200 || r.Body != snippet1 {
		t.Errorf("retrieve: %d %s", r.Status, r.Body)
	}
	// IsOwnerOrReadOnly: another user reads but does not write.
	for _, m := range []string{"PUT", "PATCH", "DELETE"} {
		r := bob.Do(m, "/snippets/1/", `{"code":"y"}`, jsonBody, "X-CSRFToken: "+bob.Cookie("csrftoken"))
		if r.Status != 403 || r.Body != `{"detail":"You do not have permission to perform this action."}` {
			t.Errorf("%s by another user: %d %s", m, r.Status, r.Body)
		}
	}
	if r := alice.Do("PATCH", "/snippets/1/", `{"title":"Hi","linenos":true}`, jsonBody, "X-CSRFToken: "+alice.Cookie("csrftoken")); r.Status != 200 ||
		!strings.Contains(r.Body, `"title":"Hi","code":"print(\"hello\")","linenos":true`) {
		t.Errorf("update by the owner: %d %s", r.Status, r.Body)
	}
	if r := alice.Post("/snippets/", `{"code":"x","language":"klingon"}`, jsonBody, "X-CSRFToken: "+alice.Cookie("csrftoken")); r.Status != 400 ||
		r.Body != `{"language":["\"klingon\" is not a valid choice."]}` {
		t.Errorf("an unknown language: %d %s", r.Status, r.Body)
	}
	// Part 6: the highlight action renders the saved HTML, kept current
	// by the model's BeforeSave (the PATCH above turned line numbers on).
	if r := anon.Get("/snippets/1/highlight/"); r.Status != 200 || r.Header.Get("Content-Type") != "text/html; charset=utf-8" ||
		!strings.HasPrefix(r.Body, "<html>") || !strings.Contains(r.Body, ">print</span>") || !strings.Contains(r.Body, ">1</span>") {
		t.Errorf("highlight: %d %v %s", r.Status, r.Header, r.Body)
	}
	// Part 2: format suffixes.
	if r := anon.Get("/snippets/1.json"); r.Status != 200 || r.Header.Get("Content-Type") != "application/json" ||
		!strings.Contains(r.Body, `"highlight":"http://testserver/snippets/1/highlight.html"`) {
		t.Errorf("/snippets/1.json: %d %v %s", r.Status, r.Header, r.Body)
	}
	// Part 5: the API root, in registration order, and the users with
	// the links of their snippets.
	if r := anon.Get("/"); r.Status != 200 || r.Body != `{"snippets":"http://testserver/snippets/","users":"http://testserver/users/"}` {
		t.Errorf("api root: %d %s", r.Status, r.Body)
	}
	if r := anon.Get("/users/1/"); r.Status != 200 ||
		r.Body != `{"url":"http://testserver/users/1/","id":1,"username":"alice","snippets":["http://testserver/snippets/1/"]}` {
		t.Errorf("a user: %d %s", r.Status, r.Body)
	}
	// Part 5: pages of ten.
	for i := range 10 {
		alice.Post("/snippets/", fmt.Sprintf(`{"code":"%d"}`, i), jsonBody, "X-CSRFToken: "+alice.Cookie("csrftoken"))
	}
	if r := anon.Get("/snippets/"); r.Status != 200 || !strings.HasPrefix(r.Body, `{"count":11,"next":"http://testserver/snippets/?page=2","previous":null,"results":[`+snippet1[:1]) {
		t.Errorf("first page: %d %s", r.Status, r.Body)
	}
	if r := anon.Get("/users/1/"); strings.Count(r.Body, "/snippets/") != 11 {
		t.Errorf("a user's snippets: %s", r.Body)
	}
}

// The languages and styles are choices: in OPTIONS, as DRF describes a
// ChoiceField, and as a select in the browsable page's form (with no
// option selected on the create form, as DRF, which gives a serializer
// field no model default); the code is a textarea.
func TestChoices(t *testing.T) {
	alice, _, _ := service(t)
	r := alice.Do("OPTIONS", "/snippets/", "")
	for _, want := range []string{
		`"language":{"type":"choice","required":false,"read_only":false,"label":"Language","choices":[`,
		`{"value":"python","display_name":"Python"}`,
		`"style":{"type":"choice","required":false,"read_only":false,"label":"Style","choices":[`,
		`{"value":"friendly","display_name":"friendly"}`,
	} {
		if r.Status != 200 || !strings.Contains(r.Body, want) {
			t.Errorf("OPTIONS lacks %s: %d %s", want, r.Status, r.Body)
		}
	}
	r = alice.Get("/snippets/", "Accept: text/html")
	for _, want := range []string{`name="language"><option value="abap">ABAP</option>`, `<option value="python">Python</option>`, `name="code" rows="5"></textarea>`} {
		if r.Status != 200 || !strings.Contains(r.Body, want) {
			t.Errorf("the form lacks %s: %d", want, r.Status)
		}
	}
}

// The tutorial stays within 1.2 times DRF's 94 lines: main.go's
// non-blank, non-comment lines, imports included.
func TestSize(t *testing.T) {
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for line := range strings.SplitSeq(string(src), "\n") {
		if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "//") {
			n++
		}
	}
	if n > 112 {
		t.Errorf("main.go has %d lines of code, more than 112", n)
	}
}
