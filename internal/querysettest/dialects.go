package querysettest

import (
	"database/sql"
	"database/sql/driver"
	"path/filepath"
	"testing"

	"github.com/XSAM/otelsql"
	"github.com/jmoiron/sqlx"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// TracedDialects runs fn on SQLite and on PostgreSQL, each store's
// statements recorded as spans (otelsql's "sql.conn.query", the text in
// "db.query.text") by rec.
func TracedDialects(t *testing.T, fn func(t *testing.T, db *sqlx.DB, rec *tracetest.SpanRecorder)) {
	for _, d := range []store.Dialect{store.SQLite, store.PostgreSQL} {
		t.Run(d.String(), func(t *testing.T) {
			dsn := filepath.Join(t.TempDir(), "db.sqlite3")
			if d == store.PostgreSQL {
				dsn = testservers.Postgres(t)
			}
			rec := tracetest.NewSpanRecorder()
			tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
			db, err := store.OpenWith(dsn, store.Options{OpenDB: func(c driver.Connector) *sql.DB {
				return otelsql.OpenDB(c, otelsql.WithTracerProvider(tp))
			}})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = db.Close() })
			fn(t, db, rec)
		})
	}
}

// CountingDialects runs fn on SQLite and on PostgreSQL with a database
// whose queries are counted: queries returns how many ran since its last
// call.
func CountingDialects(t *testing.T, fn func(t *testing.T, db *sqlx.DB, queries func() int)) {
	TracedDialects(t, func(t *testing.T, db *sqlx.DB, rec *tracetest.SpanRecorder) {
		seen := 0
		fn(t, db, func() int {
			n := 0
			for _, s := range rec.Ended() {
				if s.Name() == "sql.conn.query" {
					n++
				}
			}
			n, seen = n-seen, n
			return n
		})
	})
}
