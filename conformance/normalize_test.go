package conformance

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

var (
	localBase = regexp.MustCompile(`http://127\.0\.0\.1:\d+`)
	cursorArg = regexp.MustCompile(`cursor=([^&"\s>]*)`)
	tokenKey  = regexp.MustCompile(`^[0-9a-f]{40}$`)
	// drfTime is how DRF renders a datetime: UTC, "Z", microseconds unless zero.
	drfTime = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z$`)
	// throttleWait is the wait of a throttled answer, in its header or detail.
	// jwtWhole is a value that is one encoded JWT.
	jwtWhole     = regexp.MustCompile(`^eyJ[A-Za-z0-9_-]*\.eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+$`)
	throttleWait = regexp.MustCompile(`^(Request was throttled\. Expected available in )?(5[5-9]|60)( seconds\.)?$`)
)

// csrfWording maps Django 4's CSRF failure reasons to Django 3.2's, which
// the contract allows either way.
var csrfWording = strings.NewReplacer(
	"CSRF Failed: CSRF token missing.", "CSRF Failed: CSRF token missing or incorrect.",
	"CSRF Failed: CSRF token incorrect.", "CSRF Failed: CSRF token missing or incorrect.",
)

// normalize rewrites what legitimately differs between the two sides in a
// string: the server's address, token keys (numbered in order of first
// appearance on this side), cursors (decoded), datetimes of "now", waits
// of a minute's throttle, and the parser's own wording after "JSON parse
// error - ".
func (s *side) normalize(v string) string {
	v = localBase.ReplaceAllString(v, "http://testserver")
	v = cursorArg.ReplaceAllStringFunc(v, func(m string) string {
		return "cursor=" + decodeCursor(strings.TrimPrefix(m, "cursor="))
	})
	if tokenKey.MatchString(v) {
		n, ok := s.keys[v]
		if !ok {
			n = len(s.keys) + 1
			s.keys[v] = n
		}
		return "<token " + strconv.Itoa(n) + ">"
	}
	if drfTime.MatchString(v) {
		if t, err := time.Parse(time.RFC3339Nano, v); err == nil && time.Since(t).Abs() < time.Hour {
			return "<now>"
		}
	}
	if m := throttleWait.FindStringSubmatch(v); m != nil {
		// A slow machine may take a second off the minute's wait.
		return m[1] + "about 60" + m[3]
	}
	if jwtWhole.MatchString(v) {
		// A JWT obtained (the fuzzer's): its shape and claims.
		return describeJWT(v)
	}
	return csrfWording.Replace(v)
}

// decodeCursor shows a cursor as its decoded, sorted o/r/p fields, so that
// two encodings of one position compare equal.
func decodeCursor(raw string) string {
	unescaped, err := url.QueryUnescape(raw)
	if err != nil {
		return "<bad cursor " + raw + ">"
	}
	decoded, err := base64.StdEncoding.DecodeString(unescaped)
	if err != nil {
		return "<bad cursor " + raw + ">"
	}
	q, err := url.ParseQuery(string(decoded))
	if err != nil {
		return "<bad cursor " + raw + ">"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(q)) {
		vals := slices.Clone(q[k])
		for i, v := range vals {
			// A position that is a datetime of "now" (a book just
			// created) differs between the sides by the moment.
			if t, err := time.Parse("2006-01-02 15:04:05.999999-07:00", v); err == nil && time.Since(t).Abs() < time.Hour {
				vals[i] = "<now>"
			}
		}
		parts = append(parts, k+":"+strings.Join(vals, ","))
	}
	return "{" + strings.Join(parts, " ") + "}"
}

// canonicalJSON re-encodes a JSON body compactly, keeping the order of
// object keys and normalising every string.
func (s *side) canonicalJSON(body []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var out strings.Builder
	if err := s.copyValue(dec, &out); err != nil {
		return "", err
	}
	if _, err := dec.Token(); err == nil {
		return "", fmt.Errorf("trailing data after the JSON value")
	}
	return out.String(), nil
}

func (s *side) copyValue(dec *json.Decoder, out *strings.Builder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		closing := map[json.Delim]string{'{': "}", '[': "]"}[t]
		out.WriteString(t.String())
		for i := 0; dec.More(); i++ {
			if i > 0 {
				out.WriteByte(',')
			}
			if t == '{' {
				key, err := dec.Token()
				if err != nil {
					return err
				}
				out.WriteString(quote(key.(string)) + ":")
			}
			if err := s.copyValue(dec, out); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return err
		}
		out.WriteString(closing)
	case string:
		out.WriteString(quote(s.normalize(t)))
	case nil:
		out.WriteString("null")
	default:
		fmt.Fprint(out, t)
	}
	return nil
}

// quote is a JSON string literal of s, without HTML escaping.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// comparedHeaders are the headers whose values must agree.
var comparedHeaders = []string{
	"Content-Type", "Allow", "WWW-Authenticate", "Link", "Retry-After", "Location",
	"Cache-Control", "X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy",
	"Cross-Origin-Opener-Policy",
}

// view is the comparable form of an answer.
type view struct {
	status  int
	headers map[string]string
	body    string
}

func (s *side) view(a *answer) view {
	v := view{status: a.status, headers: map[string]string{}}
	for _, h := range comparedHeaders {
		if vals := a.header.Values(h); len(vals) > 0 {
			v.headers[h] = s.normalize(strings.Join(vals, ", "))
		}
	}
	if vary := varyTokens(a.header); vary != "" {
		v.headers["Vary"] = vary
	}
	if c := cookieShapes(a.header); c != "" {
		v.headers["Set-Cookie"] = c
	}
	switch {
	case len(a.body) == 0:
		v.body = ""
	case a.isJSON():
		c, err := s.canonicalJSON(a.body)
		if err != nil {
			v.body = fmt.Sprintf("<invalid JSON: %v> %s", err, a.body)
		} else {
			v.body = c
		}
	default:
		v.body = "<" + strings.SplitN(a.header.Get("Content-Type"), ";", 2)[0] + " body>"
	}
	return v
}

// varyTokens lists the Vary values, sorted and lower-cased.
func varyTokens(h http.Header) string {
	var tokens []string
	for _, v := range h.Values("Vary") {
		for _, t := range strings.Split(v, ",") {
			if t = strings.ToLower(strings.TrimSpace(t)); t != "" && !slices.Contains(tokens, t) {
				tokens = append(tokens, t)
			}
		}
	}
	slices.Sort(tokens)
	return strings.Join(tokens, ", ")
}

// cookieShapes lists the cookies set, by name, with whether they are
// HttpOnly and whether they delete the cookie; values differ by nature.
func cookieShapes(h http.Header) string {
	var shapes []string
	for _, c := range (&http.Response{Header: h}).Cookies() {
		shape := c.Name
		if c.HttpOnly {
			shape += " HttpOnly"
		}
		if c.MaxAge < 0 || c.Value == "" {
			shape += " deleted"
		}
		shapes = append(shapes, shape)
	}
	slices.Sort(shapes)
	return strings.Join(shapes, "; ")
}

// differences lists how ours differs from the reference's, empty if it does not.
func differences(ref, ours view) []string {
	var d []string
	if ref.status != ours.status {
		d = append(d, fmt.Sprintf("status: reference %d, sample %d", ref.status, ours.status))
	}
	names := []string{"Vary", "Set-Cookie"}
	names = append(names, comparedHeaders...)
	slices.Sort(names)
	for _, h := range names {
		if ref.headers[h] != ours.headers[h] {
			d = append(d, fmt.Sprintf("%s: reference %q, sample %q", h, ref.headers[h], ours.headers[h]))
		}
	}
	if ref.body != ours.body {
		d = append(d, "body:\n    reference "+clip(ref.body, ours.body)+"\n    sample    "+clip(ours.body, ref.body))
	}
	return d
}

// clip shortens a body to the neighbourhood of its first difference with other.
func clip(body, other string) string {
	const before, after = 120, 200
	i := 0
	for i < len(body) && i < len(other) && body[i] == other[i] {
		i++
	}
	start, end := max(0, i-before), min(len(body), i+after)
	out := body[start:end]
	if start > 0 {
		out = "…" + out
	}
	if end < len(body) {
		out += "…"
	}
	return out
}
