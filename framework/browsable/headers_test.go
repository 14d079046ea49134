package browsable_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/request"
)

// withHeader is a view answering with the header X-Long: value and a Link.
func withHeader(link, value string) framework.View {
	return framework.View{Get: func(*framework.View, *request.Request) (*framework.Response, error) {
		resp := framework.OK([]int{})
		resp.Header = http.Header{"Link": {link}, "X-Long": {value}}
		return resp, nil
	}}
}

// A header longer than 160 characters is broken at its commas with <br>
// by DRF 3.14's page (its break_long_headers: "<br> " before the value,
// ", <br>" for each comma), and shown as it is by DRF 3.18's (#9435,
// #9438); both references answer so to GET /pages/link-header/?page=2 with
// a long query. Unlike DRF 3.14, the parts stay escaped.
func TestLongHeaders(t *testing.T) {
	long := strings.Repeat("a", 60)
	link := `<http://x/books/?page=3&x=` + long + `>; rel="next", <http://x/books/?x=` + long + `>; rel="prev"`
	shown := `&lt;http://x/books/?page=3&amp;x=` + long + `&gt;; rel=&#34;next&#34;, &lt;http://x/books/?x=` + long + `&gt;; rel=&#34;prev&#34;`
	broken := `<br> &lt;http://x/books/?page=3&amp;x=` + long + `&gt;; rel=&#34;next&#34;, <br> &lt;http://x/books/?x=` + long + `&gt;; rel=&#34;prev&#34;`
	for _, tc := range []struct {
		name, value, want314 string
	}{
		// 160 characters, 202 bytes: not longer than 160.
		{"160 characters", strings.Repeat("é", 100) + "," + strings.Repeat("b", 59), strings.Repeat("é", 100) + "," + strings.Repeat("b", 59)},
		{"161 characters", "<a>," + strings.Repeat("b", 157), "<br> &lt;a&gt;, <br>" + strings.Repeat("b", 157)},
		{"no comma", strings.Repeat("c", 200), strings.Repeat("c", 200)},
	} {
		for _, level := range []framework.Compatibility{framework.DRF318, framework.DRF314} {
			s := settings
			s.Compatibility = level
			body := html(t, serve(t, withHeader(link, tc.value), s), "/")
			wantLink, wantLong := shown, strings.ReplaceAll(strings.ReplaceAll(tc.value, "<", "&lt;"), ">", "&gt;")
			if level == framework.DRF314 {
				wantLink, wantLong = broken, tc.want314
			}
			mustContain(t, body, "<b>Link:</b> "+wantLink+"\n", "<b>X-Long:</b> "+wantLong+"\n")
			if level == framework.DRF318 {
				mustNotContain(t, body, "<br>")
			}
		}
	}
}
