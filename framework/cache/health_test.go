package cache_test

import (
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/cache"
	"github.com/go-drf/drf/framework/health"
	"github.com/go-drf/drf/internal/testservers"
)

// TestReadyzChecksRedis: with a Redis throttle cache, /readyz answers 503
// naming the cache while the server is down, and 200 once it is back.
func TestReadyzChecksRedis(t *testing.T) {
	srv := testservers.StartRedis(t)
	c, err := cache.Open(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.(*cache.Redis).Close() })
	api := framework.NewAPI(nil, framework.Settings{ThrottleCache: c})
	health.Mount(api, health.Config{})
	client := apitest.New(t, api)
	if r := client.Get("/readyz"); r.Status != 200 || r.Body != `{"status":"ok","checks":{"cache":"ok"}}` {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	srv.Stop()
	if r := client.Get("/readyz"); r.Status != 503 || r.Body != `{"status":"unavailable","failed":["cache"],"checks":{"cache":"failed"}}` {
		t.Errorf("Redis stopped: %d %s", r.Status, r.Body)
	}
	srv.Restart(t)
	if r := client.Get("/readyz"); r.Status != 200 {
		t.Errorf("Redis back: %d %s", r.Status, r.Body)
	}
}
