package management

import (
	"bytes"
	"context"
	"log/slog"
	"testing"
	"time"
)

// TestRequestLineIsSlogs: runserver's request line is the line
// log/slog's text handler writes for the same record, quoting included.
func TestRequestLineIsSlogs(t *testing.T) {
	for _, c := range []struct {
		at           time.Time
		method, path string
		status       int
		d            time.Duration
	}{
		{time.Date(2026, 11, 23, 19, 35, 55, 123456789, time.UTC), "GET", "/books/1/", 200, 1234567 * time.Nanosecond},
		{time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("", 3600)), "POST", "/a b/", 404, 0},
		{time.Date(2026, 1, 2, 3, 4, 5, 999999999, time.UTC), "GET", `/q"=\é/`, 500, 2 * time.Second},
		{time.Date(2026, 1, 2, 3, 4, 5, 1000000, time.Local), "", "/\x00\n/", 301, time.Microsecond},
		{time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), "GET", "/é\\\x7f/", 200, time.Millisecond},
		{time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), "GET", "/\u00a0/\xff/", 200, time.Millisecond},
	} {
		var want bytes.Buffer
		rec := slog.NewRecord(c.at, slog.LevelInfo, "request", 0)
		rec.AddAttrs(slog.String("method", c.method), slog.String("path", c.path),
			slog.Int("status", c.status), slog.Duration("duration", c.d))
		if err := slog.NewTextHandler(&want, nil).Handle(context.Background(), rec); err != nil {
			t.Fatal(err)
		}
		if got := appendRequestLine(nil, c.at, c.method, c.path, c.status, c.d); string(got) != want.String() {
			t.Errorf("got  %s\nwant %s", got, want.String())
		}
	}
}
