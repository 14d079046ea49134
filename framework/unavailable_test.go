package framework_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/store"
)

// TestUnavailableDatabaseIs503: an error of a database that cannot serve
// the request, from a handler or an authentication scheme, is answered
// as DRF's ServiceUnavailable (503, Retry-After, its detail), through the
// exception handler; the statement's own failure stays a 500.
func TestUnavailableDatabaseIs503(t *testing.T) {
	const detail = "Service temporarily unavailable, try again later."
	for _, c := range []struct {
		name   string
		err    error
		status int
	}{
		{"no connection in time", fmt.Errorf("query: %w", store.ErrUnavailable), 503},
		{"starting up", &pgconn.PgError{Severity: "FATAL", Code: "57P03", Message: "the database system is starting up"}, 503},
		{"shutting down", &pgconn.PgError{Severity: "FATAL", Code: "57P01", Message: "terminating connection due to administrator command"}, 503},
		{"too many clients", &pgconn.PgError{Severity: "FATAL", Code: "53300", Message: "sorry, too many clients already"}, 503},
		{"a syntax error", &pgconn.PgError{Severity: "ERROR", Code: "42601", Message: "syntax error"}, 500},
		{"any other error", errors.New("boom"), 500},
	} {
		t.Run(c.name, func(t *testing.T) {
			var seen error
			s := framework.Settings{ExceptionHandler: func(err error, v *framework.View, r *request.Request) *framework.Response {
				seen = err
				return framework.DefaultExceptionHandler(err, v, r)
			}}
			for _, v := range []framework.View{
				{Get: func(*framework.View, *request.Request) (*framework.Response, error) { return nil, c.err }},
				{Authentication: framework.Authenticators(failingScheme{c.err}), Get: func(*framework.View, *request.Request) (*framework.Response, error) {
					return framework.OK(nil), nil
				}},
			} {
				resp, body := do(t, apitest.View(v, s), "GET", "/", nil, "")
				if resp.Status != c.status {
					t.Errorf("%d %s, want %d", resp.Status, resp.Body, c.status)
				}
				if c.status != 503 {
					continue
				}
				if body["detail"] != detail || resp.Header.Get("Retry-After") != "1" || !errors.Is(seen, exceptions.ServiceUnavailable(0)) {
					t.Errorf("%s Retry-After %q; the exception handler saw %v", resp.Body, resp.Header.Get("Retry-After"), seen)
				}
			}
		})
	}
}

// failingScheme is an authentication scheme whose store fails with err.
type failingScheme struct{ err error }

func (s failingScheme) Authenticate(*request.Request) (request.User, any, error) {
	return nil, nil, s.err
}
