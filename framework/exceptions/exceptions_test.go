package exceptions

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"
)

func TestThrottledWording(t *testing.T) {
	cases := []struct {
		wait       time.Duration
		detail     string
		retryAfter string
	}{
		{0, "Request was throttled.", ""},
		{300 * time.Millisecond, "Request was throttled. Expected available in 1 second.", "1"},
		{59500 * time.Millisecond, "Request was throttled. Expected available in 60 seconds.", "60"},
	}
	for _, c := range cases {
		e := Throttled(c.wait)
		if e.Detail != c.detail || e.Header.Get("Retry-After") != c.retryAfter || e.Status != 429 {
			t.Errorf("%v: %q %q %d", c.wait, e.Detail, e.Header.Get("Retry-After"), e.Status)
		}
	}
}

func TestServiceUnavailable(t *testing.T) {
	e := ServiceUnavailable(1500 * time.Millisecond)
	if e.Status != 503 || e.Code != "service_unavailable" || e.Detail != "Service temporarily unavailable, try again later." ||
		e.Header.Get("Retry-After") != "2" || e.Wait != 1500*time.Millisecond {
		t.Errorf("%d %q %q Retry-After %q", e.Status, e.Code, e.Detail, e.Header.Get("Retry-After"))
	}
	if e := ServiceUnavailable(0, "Down for maintenance."); e.Detail != "Down for maintenance." || e.Header != nil {
		t.Errorf("%q %v", e.Detail, e.Header)
	}
}

func TestValidationErrorsKeepFieldOrder(t *testing.T) {
	var v ValidationErrors
	v.Add("username", "This field is required.")
	v.Add("password", "This field is required.")
	v.Add("username", "Another.")
	b, err := json.Marshal(ValidationError(v).Detail)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"username":["This field is required.","Another."],"password":["This field is required."]}`
	if string(b) != want {
		t.Fatalf("%s", b)
	}
}

func TestErrorsIsMatchesByCode(t *testing.T) {
	err := fmt.Errorf("wrapped: %w", NotFound("Invalid page."))
	if !errors.Is(err, NotFound()) || errors.Is(err, PermissionDenied()) {
		t.Fatal("errors.Is should match by code")
	}
	if MethodNotAllowed("GET").Error() != `Method "GET" not allowed.` {
		t.Fatal(MethodNotAllowed("GET").Error())
	}
}
