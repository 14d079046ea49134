package framework_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/internal/testservers"
	"github.com/go-drf/drf/sample"
)

// BenchmarkSamplePostgres is BenchmarkSample on PostgreSQL: the load
// benchmark's requests (bench/run --postgres) through the whole sample
// service, one at a time, reads through store.Reader:
//
//	go test -run '^$' -bench SamplePostgres -benchmem ./framework/
func BenchmarkSamplePostgres(b *testing.B) {
	ctx := context.Background()
	db := testservers.OpenPostgres(b, sample.Migrations()...)
	if err := sample.Seed(ctx, db, 1000); err != nil {
		b.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "ANALYZE"); err != nil {
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
	for _, c := range sampleTargets {
		b.Run(c.name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8000"+c.target, nil)
			if c.token {
				req.Header.Set("Authorization", "Token "+tok.Key)
			}
			serve(b, h, req)
		})
	}
}
