package authtoken_test

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

func TestMain(m *testing.M) { os.Exit(testservers.Main(m)) }

// TestTokensOnPostgres: the token store's life cycle on PostgreSQL.
func TestTokensOnPostgres(t *testing.T) {
	f := newFixture(t, testservers.Postgres(t))
	ctx := context.Background()
	tok, created, err := f.tokens.GetOrCreate(ctx, f.alice.ID)
	if err != nil || !created {
		t.Fatalf("GetOrCreate: %+v %v %v", tok, created, err)
	}
	got, err := f.tokens.Get(ctx, tok.Key)
	if err != nil || got.User.Username != "alice" || !got.Created.Equal(tok.Created) {
		t.Fatalf("Get: %+v %v", got, err)
	}
	for _, key := range []string{tok.Key[:39] + "\x00", "\xff\xfe"} {
		if _, err := f.tokens.Get(ctx, key); err != authtoken.ErrNotFound {
			t.Errorf("Get(%q) = %v, want ErrNotFound", key, err)
		}
	}
	fresh, err := f.tokens.Regenerate(ctx, f.alice.ID)
	if err != nil || fresh.Key == tok.Key {
		t.Fatalf("Regenerate: %+v %v", fresh, err)
	}
	if n := f.count(t, `WHERE "user_id" = ?`, f.alice.ID); n != 1 {
		t.Errorf("%d tokens for alice", n)
	}
	if toks, total, err := f.tokens.List(ctx, 10, 0); err != nil || total != 1 || len(toks) != 1 || toks[0].User.Username != "alice" {
		t.Errorf("List: %v %d %v", toks, total, err)
	}
	if n, err := f.tokens.Backfill(ctx); err != nil || n != 2 {
		t.Errorf("Backfill = %d, %v; want 2", n, err)
	}
}

// TestGetOrCreateAcrossInstances: callers on two connection pools (two
// instances of a service) racing to create the tokens of three users leave
// exactly one token per user, and every caller gets that token.
func TestGetOrCreateAcrossInstances(t *testing.T) {
	url := testservers.Postgres(t)
	f := newFixture(t, url)
	other, err := store.Open(url)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	instances := []*authtoken.Tokens{f.tokens, {DB: other}}
	users := []int64{f.alice.ID, f.bob.ID, f.admin.ID}
	const callers = 8
	keys := make([][]string, len(users))
	for i := range keys {
		keys[i] = make([]string, callers)
	}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for u, id := range users {
		for c := range callers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				tok, _, err := instances[c%2].GetOrCreate(context.Background(), id)
				if err != nil {
					t.Error(err)
					return
				}
				keys[u][c] = tok.Key
			}()
		}
	}
	close(start)
	wg.Wait()
	for u, id := range users {
		if n := f.count(t, `WHERE "user_id" = ?`, id); n != 1 {
			t.Errorf("user %d has %d tokens", id, n)
		}
		for _, k := range keys[u] {
			if k != keys[u][0] {
				t.Errorf("user %d: callers got different keys %v", id, keys[u])
				break
			}
		}
	}
}
