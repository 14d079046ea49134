package scaleout_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/internal/testservers"
	"github.com/go-drf/drf/sample"
)

// BenchmarkSampleOnPostgres serves requests through the whole sample
// service on PostgreSQL (1,000 books), in process, 8 at a time, each
// with a request context that can be canceled as a server's can, and
// alice's token: what the database path costs (the pool, the statements'
// deadlines, the transaction of a create and the id it reads before its
// COMMIT):
//
//	go test -run '^$' -bench SampleOnPostgres -benchtime 4s ./scaleout/
func BenchmarkSampleOnPostgres(b *testing.B) {
	ctx := context.Background()
	db := testservers.OpenPostgres(b, sample.Migrations()...)
	if err := sample.Seed(ctx, db, 1000); err != nil {
		b.Fatal(err)
	}
	alice, err := (&auth.Users{DB: db}).GetByUsername(ctx, "alice")
	if err != nil {
		b.Fatal(err)
	}
	tok, _, err := (&authtoken.Tokens{DB: db}).GetOrCreate(ctx, alice.ID)
	if err != nil {
		b.Fatal(err)
	}
	h, err := sample.New(ctx, db)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, method, target, body string }{
		{"detail", "GET", "/books/1/", ""},
		{"page-number", "GET", "/pages/page-number/?page=3", ""},
		{"create", "POST", "/books/", `{"title":"Bench","author":"Me","rating":3}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetParallelism(4) // 8 at once on 2 CPUs
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					rctx, cancel := context.WithCancel(ctx)
					req := httptest.NewRequestWithContext(rctx, c.method, "http://127.0.0.1:8000"+c.target, strings.NewReader(c.body))
					req.Header.Set("Authorization", "Token "+tok.Key)
					if c.body != "" {
						req.Header.Set("Content-Type", "application/json")
					}
					w := httptest.NewRecorder()
					h.ServeHTTP(w, req)
					cancel()
					if w.Code >= 300 {
						b.Errorf("%s %s: %d %s", c.method, c.target, w.Code, w.Body)
						return
					}
				}
			})
		})
	}
}
