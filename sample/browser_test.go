package sample_test

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/sample"
)

// chromiumPath is Debian's chromium, which the browser test drives.
const chromiumPath = "/usr/bin/chromium"

// browserArtifacts is where the browser test keeps its screenshots,
// relative to this package's directory.
var browserArtifacts = filepath.Join("..", "artifacts", "browser")

// TestBrowser walks the browsable pages of the sample in a real headless
// chromium: the numbered pagination controls, the forms hidden from an
// anonymous user, the OPTIONS button, the session login form, a book
// created through the HTML form tab and through the raw data tab, the PUT
// form filled with the book, and the raw-data form posting to /auth/csrf/
// with the CSRF token. Screenshots go to artifacts/browser/ (each logged). It skips
// when chromium is missing, unless CI_REQUIRE_BROWSER=1.
func TestBrowser(t *testing.T) {
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CI_REQUIRE_BROWSER") == "1" {
			t.Fatalf("CI_REQUIRE_BROWSER=1 but %s is missing (apt-get install chromium): %v", chromiumPath, err)
		}
		t.Skipf("%s is missing: install Debian's chromium to run the browser test (set CI_REQUIRE_BROWSER=1 to fail instead of skipping)", chromiumPath)
	}
	srv := browserServer(t)
	b := newChromeTab(t)

	// The list as HTML: page 1 with its numbered controls.
	b.open(srv.URL + "/pages/page-number/")
	b.wantLocation(srv.URL + "/pages/page-number/")
	b.wantResponse("HTTP 200 OK", "Content-Type: application/json", `"count": 100,`, `"id": 1,`, `"id": 5,`)
	b.wantNoResponse(`"id": 6,`)
	b.screenshot("page-number.png")

	// The "next" control.
	chromeFollow(b, chromedp.CSS(`#controls a[aria-label="Next"]`))
	b.wantLocation(srv.URL + "/pages/page-number/?page=2")
	b.wantResponse(`"id": 6,`, `"id": 10,`, `"previous": "`+srv.URL+`/pages/page-number/",`)
	b.wantNoResponse(`"id": 5,`)

	// A page-number control: the last page, 20 of 5 books each.
	chromeFollow(b, chromedp.Search(`//nav[@id="controls"]//a[normalize-space()="20"]`))
	b.wantLocation(srv.URL + "/pages/page-number/?page=20")
	b.wantResponse(`"id": 96,`, `"id": 100`, `"next": null,`)
	b.wantNoResponse(`"id": 95,`)

	// Anonymous users may read the books but not write them: the list has
	// no POST form, an item no PUT, PATCH or DELETE; OPTIONS is offered.
	b.open(srv.URL + "/books/")
	b.wantResponse("HTTP 200 OK", `"count": 100,`)
	b.wantAbsent("#send", "#post-html-form", "#post-raw-form", "#delete-form")
	b.screenshot("anonymous-books.png")
	b.open(srv.URL + "/books/1/")
	b.wantAbsent("#send", "#put-html-form", "#put-raw-form", "#delete-form")
	if crumbs := chromeText(b, chromedp.CSS(`nav.breadcrumbs`)); crumbs != "Book ListBook Instance" {
		t.Fatalf("breadcrumbs %q, want Book List › Book Instance", crumbs)
	}
	// The OPTIONS button shows the view's metadata in place.
	b.do(chromedp.Click(chromedp.CSS(`#options-form button`)))
	b.waitRequest("OPTIONS /books/1/")
	b.wantResponse("HTTP 200 OK", `"name": "Book Instance",`, `"renders": [`)
	b.screenshot("options.png")

	// Log in through the session login form, which returns to the page.
	chromeFollow(b, chromedp.ID("login"))
	if loc := b.location(); !strings.HasPrefix(loc, srv.URL+"/api-auth/login/?next=") {
		t.Fatalf("the Log in link went to %s", loc)
	}
	b.do(chromedp.SetValue(chromedp.CSS(`input[name="username"]`), "alice"),
		chromedp.SetValue(chromedp.CSS(`input[name="password"]`), "alice-pass"))
	chromeFollow(b, chromedp.CSS(`input[type="submit"]`))
	b.wantLocation(srv.URL + "/books/1/")
	if name := chromeText(b, chromedp.ID("username")); name != "alice" {
		t.Fatalf("after logging in the page shows user %q, want alice", name)
	}

	// The HTML form tab of the list, built from the serializer, creates a
	// book owned by alice; the answer replaces the page's.
	b.open(srv.URL + "/books/")
	b.do(chromedp.SetValue(chromedp.ID("post-title"), "Made in a browser"),
		chromedp.SetValue(chromedp.ID("post-author"), "Chromedp"),
		chromedp.SetValue(chromedp.ID("post-rating"), "4"))
	b.screenshot("html-form.png")
	b.do(chromedp.Click(chromedp.CSS(`#post-html-form button[value="POST"]`)))
	b.waitRequest("POST /books/")
	b.wantResponse("HTTP 201 Created", `"id": 101,`, `"title": "Made in a browser",`, `"author": "Chromedp",`, `"rating": 4,`, `"owner": "alice"`)
	b.screenshot("html-form-created.png")
	// Bad input is answered with the API's own messages.
	b.open(srv.URL + "/books/")
	b.do(chromedp.SetValue(chromedp.ID("post-rating"), "9"),
		chromedp.Click(chromedp.CSS(`#post-html-form button[value="POST"]`)))
	b.waitRequest("POST /books/")
	b.wantResponse("HTTP 400 Bad Request", `"This field may not be blank."`, `"Ensure this value is less than or equal to 5."`)
	// The raw data tab: its initial content holds the writable fields; a
	// URL in the answer is a link again.
	b.open(srv.URL + "/books/")
	b.do(chromedp.Click(chromedp.CSS(`[aria-controls="post-raw-form"]`)))
	if raw := chromeRun(b, chromedp.Evaluate[string](`document.getElementById("post-raw-content").value`)); raw != "{\n    \"title\": \"\",\n    \"author\": \"\",\n    \"rating\": null\n}" {
		t.Fatalf("the raw data starts as %q", raw)
	}
	b.do(chromedp.SetValue(chromedp.ID("post-raw-content"), `{"title": "https://example.com/raw", "author": "Raw", "rating": 2}`),
		chromedp.Click(chromedp.CSS(`#post-raw-form button[value="POST"]`)))
	b.waitRequest("POST /books/")
	b.wantResponse("HTTP 201 Created", `"id": 102,`)
	if n := chromeRun(b, chromedp.Evaluate[int](`document.querySelectorAll('#response a[href="https://example.com/raw"]').length`)); n != 1 {
		t.Fatal("the URL in the answer of the raw form's POST is not a link")
	}
	// The item's PUT form is filled with the book, and updates it.
	b.open(srv.URL + "/books/101/")
	if title := chromeRun(b, chromedp.Evaluate[string](`document.getElementById("put-title").value`)); title != "Made in a browser" {
		t.Fatalf("the PUT form's title is %q", title)
	}
	b.wantPresent("#put-raw-form", "#delete-form")
	b.do(chromedp.SetValue(chromedp.ID("put-rating"), "5"),
		chromedp.Click(chromedp.CSS(`#put-html-form button[value="PUT"]`)))
	b.waitRequest("PUT /books/101/")
	b.wantResponse("HTTP 200 OK", `"rating": 5,`, `"title": "Made in a browser",`)
	b.screenshot("put-form.png")

	// /auth/csrf/ only accepts POST: its page is a 405 with the raw form.
	b.open(srv.URL + "/auth/csrf/")
	b.wantResponse("HTTP 405 Method Not Allowed", "Allow: POST, OPTIONS")
	// The session is enforced: the same POST without the token is refused.
	status := chromeRun(b, chromedp.Evaluate[int](`fetch("/auth/csrf/", {method: "POST",
		headers: {"Content-Type": "application/json", "Accept": "application/json"}, body: "{}"}).then(r => r.status)`,
		chromedp.EvalAwaitPromise))
	if status != 403 {
		t.Fatalf("a session POST without the CSRF token answered %d, want 403", status)
	}
	b.do(chromedp.SetValue(chromedp.ID("post-raw-content"), "{}"),
		chromedp.Click(chromedp.CSS(`#post-raw-form button[value="POST"]`)))
	b.waitRequest("POST /auth/csrf/")
	b.wantResponse("HTTP 200 OK", "Content-Type: application/json", "{\n    \"username\": \"alice\"\n}")
	b.screenshot("csrf-post.png")

	// Log out: the page offers to log in again.
	chromeFollow(b, chromedp.CSS(`#logout-form button`))
	b.wantLocation(srv.URL + "/auth/csrf/")
	if n := chromeRun(b, chromedp.Evaluate[int](`document.querySelectorAll("#login").length`)); n != 1 {
		t.Fatal("after logging out the page has no Log in link")
	}
	b.noScriptErrors()
}

// browserServer serves the sample, seeded with 100 books, on a database
// of the test's own.
func browserServer(t *testing.T) *httptest.Server {
	t.Helper()
	ctx := t.Context()
	db, err := store.Open(filepath.Join(t.TempDir(), "db.sqlite3"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if err := sample.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	if err := sample.Seed(ctx, db, 100); err != nil {
		t.Fatal(err)
	}
	h, err := sample.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// chromeTab is one tab of a headless chromium, with the test it fails.
type chromeTab struct {
	t   *testing.T
	ctx context.Context

	mu     sync.Mutex
	errors []string
}

// newChromeTab starts chromium with a fresh profile; it stops with the test.
func newChromeTab(t *testing.T) *chromeTab {
	t.Helper()
	alloc, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1200, 900),
	)
	t.Cleanup(cancel)
	tab, cancelTab := chromedp.NewContext(alloc)
	t.Cleanup(cancelTab)
	// The first action starts the browser; it must not carry the timeout,
	// which would stop the browser with it.
	if err := chromedp.Do(tab); err != nil {
		t.Fatalf("starting %s: %v", chromiumPath, err)
	}
	ctx, cancelTimeout := context.WithTimeout(tab, 60*time.Second)
	t.Cleanup(cancelTimeout)
	b := &chromeTab{t: t, ctx: ctx}
	err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*runtime.EventExceptionThrown); ok && e.ExceptionDetails != nil {
			msg := e.ExceptionDetails.Text
			if e.ExceptionDetails.Exception != nil {
				msg += " " + e.ExceptionDetails.Exception.Description
			}
			b.mu.Lock()
			b.errors = append(b.errors, msg)
			b.mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// chromeRun runs one action that returns a value, failing the test on error.
func chromeRun[T any](b *chromeTab, a chromedp.Action[T]) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, a)
	if err != nil {
		b.t.Fatalf("browser: %v\nthe page shows:\n%s", err, b.pageText())
	}
	return v
}

func (b *chromeTab) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		b.t.Fatalf("browser: %v\nthe page shows:\n%s", err, b.pageText())
	}
}

// open navigates to url, asking for HTML as a browser does.
func (b *chromeTab) open(url string) {
	b.t.Helper()
	b.do(chromedp.Navigate(url))
}

// chromeFollow clicks the element sel selects and waits for the page it loads.
func chromeFollow[S chromedp.Selectable](b *chromeTab, sel S) {
	b.t.Helper()
	if _, err := chromedp.RunResponse(b.ctx, chromedp.Click(sel)); err != nil {
		b.t.Fatalf("browser: following %v: %v\nthe page shows:\n%s", sel, err, b.pageText())
	}
}

func (b *chromeTab) location() string { return chromeRun(b, chromedp.Location()) }

func (b *chromeTab) wantLocation(want string) {
	b.t.Helper()
	if got := b.location(); got != want {
		b.t.Fatalf("the browser is at %s, want %s", got, want)
	}
}

func chromeText[S chromedp.Selectable](b *chromeTab, sel S) string {
	b.t.Helper()
	return chromeRun(b, chromedp.TextContent(sel))
}

// wantResponse checks that the page's answer shows every string of want.
func (b *chromeTab) wantResponse(want ...string) {
	b.t.Helper()
	got := chromeText(b, chromedp.ID("response"))
	for _, w := range want {
		if !strings.Contains(got, w) {
			b.t.Fatalf("the answer on the page lacks %q:\n%s", w, got)
		}
	}
}

func (b *chromeTab) wantNoResponse(unwanted string) {
	b.t.Helper()
	if got := chromeText(b, chromedp.ID("response")); strings.Contains(got, unwanted) {
		b.t.Fatalf("the answer on the page shows %q:\n%s", unwanted, got)
	}
}

// waitRequest waits until the page shows the request line want, which
// the forms' script writes when their answer arrives.
func (b *chromeTab) waitRequest(want string) {
	b.t.Helper()
	chromeRun(b, chromedp.Poll[chromedp.Void](`document.getElementById("request").textContent === `+strconv.Quote(want)))
}

// wantAbsent checks that the page has none of the elements sel selects.
func (b *chromeTab) wantAbsent(sels ...string) {
	b.t.Helper()
	for _, sel := range sels {
		if n := chromeRun(b, chromedp.Evaluate[int](`document.querySelectorAll(`+strconv.Quote(sel)+`).length`)); n != 0 {
			b.t.Fatalf("the page has %s:\n%s", sel, b.pageText())
		}
	}
}

// wantPresent checks that the page has each element sel selects.
func (b *chromeTab) wantPresent(sels ...string) {
	b.t.Helper()
	for _, sel := range sels {
		if n := chromeRun(b, chromedp.Evaluate[int](`document.querySelectorAll(`+strconv.Quote(sel)+`).length`)); n == 0 {
			b.t.Fatalf("the page lacks %s:\n%s", sel, b.pageText())
		}
	}
}

// screenshot saves a PNG of the whole page under artifacts/browser/.
func (b *chromeTab) screenshot(name string) {
	b.t.Helper()
	png := chromeRun(b, chromedp.FullScreenshot(100))
	if err := os.MkdirAll(browserArtifacts, 0o755); err != nil {
		b.t.Fatal(err)
	}
	path := filepath.Join(browserArtifacts, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot: %s", path)
}

// pageText is the text of the current page, for failure messages.
func (b *chromeTab) pageText() string {
	s, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ""`))
	if err != nil {
		return "(unavailable: " + err.Error() + ")"
	}
	return s
}

// noScriptErrors fails the test if a page's script threw.
func (b *chromeTab) noScriptErrors() {
	b.t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.errors) > 0 {
		b.t.Fatalf("scripts threw on the pages: %s", strings.Join(b.errors, "; "))
	}
}
