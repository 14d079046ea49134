package sessions

import (
	"bytes"
	"net/http"
	"strconv"

	"github.com/go-drf/drf/contrib/sessions/csrf"
	"github.com/go-drf/drf/framework/compat"
)

// csrfFailurePage is what templates/csrf_403.html shows: Django's
// csrf_failure context with DEBUG=False, where the reason itself is not
// shown, only whether it was a missing cookie or a missing Referer.
type csrfFailurePage struct {
	// Django32 renders Django 3.2's page, else Django 5.2's.
	Django32 bool
	// NoCookie and NoReferer add their explanations.
	NoCookie, NoReferer bool
}

// csrfFailure answers 403 with Django's CSRF failure page
// (django.views.csrf.csrf_failure, DEBUG=False) for reason, as the
// Manager's Django renders it: Django 5.2's by default, Django 3.2's at
// DRF 3.14 level, whose page also says text/html without a charset.
func (m *Manager) csrfFailure(w http.ResponseWriter, reason string) {
	old := m.Compatibility == compat.DRF314
	var page bytes.Buffer
	// The template has no data but three booleans: it cannot fail.
	_ = templates().ExecuteTemplate(&page, "csrf_403.html", csrfFailurePage{
		Django32:  old,
		NoCookie:  reason == csrf.ReasonNoCookie,
		NoReferer: reason == csrf.ReasonNoReferer,
	})
	ct := "text/html; charset=utf-8"
	if old {
		ct = "text/html"
	}
	h := w.Header()
	h.Set("Content-Type", ct)
	h.Set("Content-Length", strconv.Itoa(page.Len()))
	w.WriteHeader(http.StatusForbidden)
	_, _ = w.Write(page.Bytes())
}
