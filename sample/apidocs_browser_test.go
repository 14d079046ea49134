package sample_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// operationIDs reads the operation IDs of the document at url, by path
// and method.
func operationIDs(t *testing.T, url string) map[string]string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
		} `json:"paths"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for path, ops := range doc.Paths {
		for method, op := range ops {
			ids[strings.ToUpper(method)+" "+path] = op.OperationID
		}
	}
	return ids
}

// TestDocsPagesInBrowser opens /schema/swagger-ui/ and /schema/redoc/ in
// headless chromium: each lists every operation of the sample's document
// (the whole API's, and v2's), Swagger UI's "Authorize" box takes a token
// with which "Try it out" calls /auth/token-first/ as alice, and no
// request of the pages leaves the test server. It skips as TestBrowser
// does.
func TestDocsPagesInBrowser(t *testing.T) {
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CI_REQUIRE_BROWSER") == "1" {
			t.Fatalf("CI_REQUIRE_BROWSER=1 but %s is missing (apt-get install chromium): %v", chromiumPath, err)
		}
		t.Skipf("%s is missing: install Debian's chromium to run the browser test", chromiumPath)
	}
	srv := browserServer(t)
	b := newChromeTab(t)
	stayLocal := watchRequests(t, b, srv.URL)

	// Swagger UI: every operation of each document.
	for _, version := range []string{"", "v2"} {
		doc, page := srv.URL+"/schema/?format=openapi-json", srv.URL+"/schema/swagger-ui/"
		if version != "" {
			doc += "&version=" + version
			page += "?version=" + version
		}
		ids := operationIDs(t, doc)
		b.open(page)
		chromeRun(b, chromedp.Poll[bool](`document.querySelectorAll(".opblock").length === `+strconv.Itoa(len(ids))))
		var want []string
		for _, id := range ids {
			want = append(want, id)
		}
		js, _ := json.Marshal(want)
		missing := chromeRun(b, chromedp.Evaluate[[]string](string(js)+`.filter(id => !document.querySelector('.opblock[id$="-' + id + '"]'))`))
		if len(missing) > 0 {
			t.Fatalf("Swagger UI (%q) lacks the operations %v", version, missing)
		}
		b.screenshot("swagger-ui" + version + ".png")
	}

	// Authorize with alice's token, then try /auth/token-first/.
	resp, err := http.PostForm(srv.URL+"/api-token-auth/", url.Values{"username": {"alice"}, "password": {"alice-pass"}})
	if err != nil {
		t.Fatal(err)
	}
	var tok struct{ Token string }
	if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil || tok.Token == "" {
		t.Fatalf("no token: %v", err)
	}
	resp.Body.Close()
	ids := operationIDs(t, srv.URL+"/schema/?format=openapi-json")
	op := `//div[contains(@class,"opblock")][contains(@id,"-` + ids["GET /auth/token-first/"] + `")]`
	b.open(srv.URL + "/schema/swagger-ui/")
	b.do(chromedp.Click(`//button[contains(@class,"authorize")][not(ancestor::div[contains(@class,"modal-ux")])]`))
	tokenBox := `//div[contains(@class,"auth-container")][.//h4[starts-with(normalize-space(),"tokenAuth")]]`
	b.do(chromedp.SendKeys(tokenBox+`//input`, "Token "+tok.Token),
		chromedp.Click(tokenBox+`//button[contains(@class,"authorize")]`),
		chromedp.Click(`//div[contains(@class,"modal-ux")]//button[contains(@class,"btn-done")]`),
		chromedp.Click(op+`//*[contains(@class,"opblock-summary-control")]`),
		chromedp.Click(op+`//button[contains(@class,"try-out__btn")]`),
		chromedp.Click(op+`//button[contains(@class,"execute")]`))
	chromeRun(b, chromedp.Poll[bool](`!!document.querySelector('.live-responses-table tr.response .response-col_status')`))
	status := chromeText(b, chromedp.CSS(`.live-responses-table tr.response .response-col_status`))
	body := chromeText(b, chromedp.CSS(`.live-responses-table tr.response .response-col_description`))
	if strings.TrimSpace(status) != "200" || !strings.Contains(body, `"username": "alice"`) {
		t.Fatalf("Try it out with the token: %q %q", status, body)
	}
	b.screenshot("swagger-ui-authorized.png")
	b.noScriptErrors()
	stayLocal(srv.URL + "/schema/assets/swagger-ui-bundle.js")

	// A tab of its own: each tab has a minute.
	b = newChromeTab(t)
	stayLocal = watchRequests(t, b, srv.URL)

	// Redoc: every operation of each document, by its operation ID.
	for _, version := range []string{"", "v2"} {
		doc, page := srv.URL+"/schema/?format=openapi-json", srv.URL+"/schema/redoc/"
		if version != "" {
			doc += "&version=" + version
			page += "?version=" + version
		}
		ids := operationIDs(t, doc)
		b.open(page)
		chromeRun(b, chromedp.Poll[bool](`document.querySelectorAll('[id^="operation/"]').length === `+strconv.Itoa(len(ids))))
		var want []string
		for _, id := range ids {
			want = append(want, id)
		}
		js, _ := json.Marshal(want)
		missing := chromeRun(b, chromedp.Evaluate[[]string](string(js)+`.filter(id => !document.getElementById("operation/" + id))`))
		if len(missing) > 0 {
			t.Fatalf("Redoc (%q) lacks the operations %v", version, missing)
		}
		b.screenshot("redoc" + version + ".png")
	}
	b.noScriptErrors()
	stayLocal(srv.URL + "/schema/assets/redoc.standalone.js")
}

// watchRequests records every request the tab's pages make, and those the
// browser blocked (the pages' Content-Security-Policy keeps them from
// leaving). The function it returns fails the test if a request that was
// not blocked went elsewhere than base, or if want was not requested.
func watchRequests(t *testing.T, b *chromeTab, base string) func(want string) {
	var (
		mu       sync.Mutex
		requests = map[network.RequestID]string{}
		blocked  = map[network.RequestID]network.BlockedReason{}
	)
	if err := chromedp.Listen(b.ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			requests[e.RequestID] = e.Request.URL
		case *network.EventLoadingFailed:
			if e.BlockedReason != "" {
				blocked[e.RequestID] = e.BlockedReason
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	return func(want string) {
		t.Helper()
		mu.Lock()
		defer mu.Unlock()
		var urls []string
		for id, u := range requests {
			urls = append(urls, u)
			local := strings.HasPrefix(u, base+"/") || strings.HasPrefix(u, "data:") || strings.HasPrefix(u, "blob:")
			if reason, ok := blocked[id]; !local && !ok {
				t.Errorf("a page requested %s, outside %s", u, base)
			} else if !local {
				t.Logf("blocked (%s): %s", reason, u)
			}
		}
		if !slices.Contains(urls, want) {
			t.Errorf("%s was not requested: %v", want, urls)
		}
	}
}
