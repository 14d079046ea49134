package browsable_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/browsable"
)

// chromium is Debian's chromium, which the CSP test drives.
const chromium = "/usr/bin/chromium"

// cspServer serves books() at /books/ at level, with the page's files;
// with policy, every answer is under Content-Security-Policy: default-src
// 'self'.
func cspServer(t *testing.T, level framework.Compatibility, policy bool) *httptest.Server {
	t.Helper()
	s := settings
	s.Compatibility = level
	api := framework.NewAPI(nil, s)
	api.Handle("/books/", books())
	browsable.HandleStatic(api, "")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if policy {
			w.Header().Set("Content-Security-Policy", "default-src 'self'")
		}
		api.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// newTab starts a headless chromium with a fresh profile; it stops with
// the test. It skips when chromium is missing, unless CI_REQUIRE_BROWSER=1.
func newTab(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(chromium); err != nil {
		if os.Getenv("CI_REQUIRE_BROWSER") == "1" {
			t.Fatalf("CI_REQUIRE_BROWSER=1 but %s is missing: %v", chromium, err)
		}
		t.Skipf("%s is missing (set CI_REQUIRE_BROWSER=1 to fail instead of skipping)", chromium)
	}
	alloc, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromium), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()))
	t.Cleanup(cancel)
	tab, cancelTab := chromedp.NewContext(alloc)
	t.Cleanup(cancelTab)
	// The first action starts the browser, without the timeout, which
	// would stop the browser with it.
	if err := chromedp.Do(tab); err != nil {
		t.Fatalf("starting %s: %v", chromium, err)
	}
	ctx, cancelTimeout := context.WithTimeout(tab, 60*time.Second)
	t.Cleanup(cancelTimeout)
	return ctx
}

func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// responseText waits until the page's answer is no longer was, and
// returns it (the test's deadline ends the wait).
func responseText(t *testing.T, ctx context.Context, was string) string {
	t.Helper()
	for {
		if got := eval[string](t, ctx, `document.getElementById("response").textContent`); got != was {
			return got
		}
		if err := chromedp.Do(ctx, chromedp.Sleep(50*time.Millisecond)); err != nil {
			t.Fatalf("the answer stayed %q: %v", was, err)
		}
	}
}

// Under Content-Security-Policy: default-src 'self', the page of the
// current level works in a real browser: its style sheet applies, its
// raw data form posts with fetch and shows the 201. DRF 3.14's page does
// so only without the policy: the policy blocks its inline scripts, and
// the form is submitted as a plain GET form.
func TestPageWorksUnderCSP(t *testing.T) {
	ctx := newTab(t)
	postsWithFetch(t, ctx, cspServer(t, framework.DRF318, true))
	postsWithFetch(t, ctx, cspServer(t, framework.DRF314, false))

	old := cspServer(t, framework.DRF314, true)
	if err := chromedp.Do(ctx, chromedp.Navigate(old.URL+"/books/")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(`#post-raw-form button[value="POST"]`))); err != nil {
		t.Fatal(err)
	}
	if got := eval[string](t, ctx, `document.getElementById("response").textContent`); !strings.Contains(got, "HTTP 200 OK") ||
		!strings.Contains(eval[string](t, ctx, `location.href`), "method=POST") {
		t.Errorf("DRF 3.14's page under the policy posted with its script:\n%s", got)
	}
}

// postsWithFetch opens srv's /books/ page and posts its raw data form.
func postsWithFetch(t *testing.T, ctx context.Context, srv *httptest.Server) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/books/")); err != nil {
		t.Fatal(err)
	}
	if bg := eval[string](t, ctx, `getComputedStyle(document.querySelector("header")).backgroundColor`); bg != "rgb(45, 62, 80)" {
		t.Errorf("the header's background is %q: the style sheet does not apply", bg)
	}
	before := eval[string](t, ctx, `document.getElementById("response").textContent`)
	if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.ID("post-raw-content"), `{"title": "new"}`),
		chromedp.Click(chromedp.CSS(`#post-raw-form button[value="POST"]`))); err != nil {
		t.Fatal(err)
	}
	if got := responseText(t, ctx, before); !strings.Contains(got, "HTTP 201 Created") || !strings.Contains(got, `"title": "new"`) {
		t.Errorf("after the POST the page shows:\n%s", got)
	}
	if loc := eval[string](t, ctx, `location.href`); loc != srv.URL+"/books/" {
		t.Errorf("the form navigated to %s", loc)
	}
}
