package sample_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// TestBeyondRateLimit: /beyond/ratelimit/ allows 3 requests per 10 s (and
// 5 a minute) per client; every answer carries RateLimit-Policy and what
// remains of each limit, the fourth is DRF's 429 with Retry-After and the
// fields at 0 for the burst; another client has its own quota.
func TestBeyondRateLimit(t *testing.T) {
	c := serve(t, newDB(t))
	const policy = `"ratelimit-10s";q=3;w=10, "ratelimit-60s";q=5;w=60`
	for i := range 4 {
		r := c.Get("/beyond/ratelimit/")
		want := http.StatusOK
		if i == 3 {
			want = http.StatusTooManyRequests
		}
		if r.Status != want || r.Header.Get("RateLimit-Policy") != policy {
			t.Fatalf("request %d: %d %s %v", i+1, r.Status, r.Body, r.Header)
		}
		burst, sustained := min(i+1, 3), min(i+1, 3)
		items := strings.Split(r.Header.Get("RateLimit"), ", ")
		if len(items) != 2 || !strings.HasPrefix(items[0], fmt.Sprintf(`"ratelimit-10s";r=%d;t=`, 3-burst)) ||
			!strings.HasPrefix(items[1], fmt.Sprintf(`"ratelimit-60s";r=%d;t=`, 5-sustained)) {
			t.Errorf("request %d: RateLimit %q", i+1, r.Header.Get("RateLimit"))
		}
		for _, item := range items {
			_, reset, _ := strings.Cut(item, ";t=")
			if n, err := strconv.Atoi(reset); err != nil || n < 1 || n > 60 {
				t.Errorf("request %d: reset of %q", i+1, item)
			}
		}
		if i == 3 {
			if wait, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || wait < 1 || wait > 10 ||
				r.JSON()["detail"] != "Request was throttled. Expected available in "+strconv.Itoa(wait)+" seconds." {
				t.Errorf("429: Retry-After %q, %s", r.Header.Get("Retry-After"), r.Body)
			}
		}
	}
	other := c.Get("/beyond/ratelimit/", "Authorization: Basic "+base64.StdEncoding.EncodeToString([]byte("alice:alice-pass")))
	if other.Status != http.StatusOK || !strings.HasPrefix(other.Header.Get("RateLimit"), `"ratelimit-10s";r=2;`) {
		t.Errorf("another client: %d %q", other.Status, other.Header.Get("RateLimit"))
	}
}
