package scaleout_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/go-drf/drf/framework/store"
)

// TestTwoInstances: two instances on one PostgreSQL database and one
// Redis behave as one service.
func TestTwoInstances(t *testing.T) {
	d := newDeployment(t)
	a, b := d.startTwo(t)

	t.Run("a token obtained on A authenticates on B", func(t *testing.T) {
		key := a.token(t, "alice")
		r := b.send(t, "GET", "/whoami/", "", "Authorization", "Token "+key)
		if r.status != http.StatusOK || !strings.Contains(r.body, `"username":"alice"`) || !strings.Contains(r.body, `"auth":"token"`) {
			t.Errorf("B with A's token: %d %s", r.status, r.body)
		}
	})

	t.Run("a session of A is valid on B until logout on A", func(t *testing.T) {
		jar := a.login(t, "alice")
		r := b.send(t, "GET", "/whoami/", "", "Cookie", cookieHeader(jar))
		if r.status != http.StatusOK || !strings.Contains(r.body, `"username":"alice"`) || !strings.Contains(r.body, `"auth":"session"`) {
			t.Fatalf("B with A's session: %d %s", r.status, r.body)
		}
		form := url.Values{"csrfmiddlewaretoken": {jar["csrftoken"]}}.Encode()
		if r := a.send(t, "POST", "/api-auth/logout/", form, "Cookie", cookieHeader(jar)); r.status != http.StatusFound {
			t.Fatalf("logout on A: %d %s", r.status, r.body)
		}
		r = b.send(t, "GET", "/whoami/", "", "Cookie", cookieHeader(jar))
		if r.status != http.StatusOK || !strings.Contains(r.body, `"username":null`) {
			t.Errorf("B after logout on A: %d %s, want anonymous", r.status, r.body)
		}
	})

	t.Run("the throttled view allows its rate across both instances", func(t *testing.T) {
		// 3/minute for anonymous clients, by IP: both instances see 127.0.0.1.
		var statuses []int
		for i := range 8 {
			in := a
			if i%2 == 1 {
				in = b
			}
			statuses = append(statuses, in.send(t, "POST", "/api-token-auth-throttled/", `{}`).status)
		}
		allowed := 0
		for _, s := range statuses {
			switch s {
			case http.StatusBadRequest: // through the throttle, refused by the view
				allowed++
			case http.StatusTooManyRequests:
			default:
				t.Errorf("status %d", s)
			}
		}
		if allowed != 3 || statuses[3] != http.StatusTooManyRequests {
			t.Errorf("statuses %v: %d requests through, want exactly 3 in all", statuses, allowed)
		}
	})

	t.Run("concurrent get-or-create leaves one token per user", func(t *testing.T) {
		users := []string{"admin", "alice"}
		const perInstance = 2
		keys := map[string][]string{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		start := make(chan struct{})
		for _, user := range users {
			for i := range 2 * perInstance {
				in := a
				if i%2 == 1 {
					in = b
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					r, err := in.trySend("POST", "/api-token-auth/", fmt.Sprintf(`{"username":%q,"password":"%s-pass"}`, user, user))
					var got struct{ Token string }
					if err != nil || r.status != http.StatusOK || json.Unmarshal([]byte(r.body), &got) != nil {
						t.Errorf("%s: %v %d %s", user, err, r.status, r.body)
						return
					}
					mu.Lock()
					keys[user] = append(keys[user], got.Token)
					mu.Unlock()
				}()
			}
		}
		// Start from no token at all, so that the creations race.
		db, err := store.Open(d.database)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		db.MustExec(`DELETE FROM "authtoken_token"`)
		close(start)
		wg.Wait()
		for _, user := range users {
			var n int
			if err := db.Get(&n, `SELECT count(*) FROM "authtoken_token" t JOIN "auth_user" u ON u."id" = t."user_id" WHERE u."username" = $1`, user); err != nil || n != 1 {
				t.Errorf("%s has %d tokens (%v), want 1", user, n, err)
			}
			for _, k := range keys[user] {
				if k != keys[user][0] {
					t.Errorf("%s's callers got different tokens: %v", user, keys[user])
					break
				}
			}
		}
	})

	t.Run("cursor pages walked alternately on A and B", func(t *testing.T) {
		walk := func(ins ...*instance) []string {
			var pages []string
			path := "/pages/cursor/"
			for i := 0; path != ""; i++ {
				r := ins[i%len(ins)].send(t, "GET", path, "")
				var page struct {
					Next    *string
					Results []struct{ ID int64 }
				}
				if r.status != http.StatusOK || json.Unmarshal([]byte(r.body), &page) != nil {
					t.Fatalf("%s: %d %s", path, r.status, r.body)
				}
				ids := make([]string, len(page.Results))
				for j, item := range page.Results {
					ids[j] = fmt.Sprint(item.ID)
				}
				pages = append(pages, strings.Join(ids, ","))
				path = ""
				if page.Next != nil {
					u, err := url.Parse(*page.Next)
					if err != nil {
						t.Fatal(err)
					}
					path = u.RequestURI()
				}
			}
			return pages
		}
		one, both := walk(a), walk(a, b)
		if len(one) < 3 || strings.Join(one, "|") != strings.Join(both, "|") {
			t.Errorf("pages on A alone:\n%v\nalternately on A and B:\n%v", one, both)
		}
	})
}
