package conformance

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// passwords are the demo users' passwords (sample-api.md, "Data").
var passwords = map[string]string{"admin": "admin-pass", "alice": "alice-pass", "bob": "bob-pass"}

// side is one implementation under test and the client state the table
// builds up against it: tokens, cookie jars, the previous answer.
type side struct {
	name   string
	base   string
	client *http.Client

	tokens map[string]string            // username → token key
	jars   map[string]map[string]string // jar name → cookie name → value
	last   *answer

	// keys numbers the token keys seen in answers, in order, so that
	// answers are compared by which token they carry, not its value.
	keys map[string]int
}

func newSide(name, base string) *side {
	return &side{
		name: name,
		base: base,
		client: &http.Client{
			Timeout:       30 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		tokens: map[string]string{},
		jars:   map[string]map[string]string{},
		keys:   map[string]int{},
	}
}

// answer is what a side answered to one row.
type answer struct {
	status int
	header http.Header
	body   []byte
}

func (a *answer) isJSON() bool {
	return strings.HasPrefix(a.header.Get("Content-Type"), "application/json")
}

// do sends one prepared request and records jar cookies and the answer.
func (s *side) do(method, target string, header http.Header, body, jar string) (*answer, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, target, rd)
	if err != nil {
		return nil, err
	}
	for k, vs := range header {
		if strings.EqualFold(k, "Host") {
			req.Host = vs[0]
			continue
		}
		req.Header[k] = vs
	}
	if jar != "" {
		for name, value := range s.jars[jar] {
			req.AddCookie(&http.Cookie{Name: name, Value: value})
		}
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	s.keep(jar, resp)
	return &answer{status: resp.StatusCode, header: resp.Header, body: b}, nil
}

// keep records in jar the cookies resp sets and deletes; "" keeps none.
func (s *side) keep(jar string, resp *http.Response) {
	if jar == "" {
		return
	}
	if s.jars[jar] == nil {
		s.jars[jar] = map[string]string{}
	}
	for _, c := range resp.Cookies() {
		if c.MaxAge < 0 || c.Value == "" {
			delete(s.jars[jar], c.Name)
		} else {
			s.jars[jar][c.Name] = c.Value
		}
	}
}

// token returns user's token key, obtaining it from /api-token-auth/ the
// first time.
func (s *side) token(user string) (string, error) {
	if k, ok := s.tokens[user]; ok {
		return k, nil
	}
	body := fmt.Sprintf(`{"username":%q,"password":%q}`, user, passwords[user])
	h := http.Header{"Content-Type": {"application/json"}}
	a, err := s.do(http.MethodPost, s.base+"/api-token-auth/", h, body, "")
	if err != nil {
		return "", err
	}
	var got struct{ Token string }
	if a.status != http.StatusOK || json.Unmarshal(a.body, &got) != nil || got.Token == "" {
		return "", fmt.Errorf("obtaining %s's token: %d %s", user, a.status, a.body)
	}
	s.tokens[user] = got.Token
	return got.Token, nil
}

// login makes jar a session logged in as user, through the login form, the
// first time the jar is used.
func (s *side) login(jar, user string) error {
	if _, ok := s.jars[jar]["sessionid"]; ok {
		return nil
	}
	s.jars[jar] = map[string]string{}
	if _, err := s.do(http.MethodGet, s.base+"/api-auth/login/", nil, "", jar); err != nil {
		return err
	}
	form := url.Values{"csrfmiddlewaretoken": {s.jars[jar]["csrftoken"]}, "username": {user},
		"password": {passwords[user]}, "next": {""}}
	h := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}
	a, err := s.do(http.MethodPost, s.base+"/api-auth/login/", h, form.Encode(), jar)
	if err != nil {
		return err
	}
	if a.status != http.StatusFound || s.jars[jar]["sessionid"] == "" {
		return fmt.Errorf("logging %s in: %d, cookies %v", user, a.status, a.header.Values("Set-Cookie"))
	}
	return nil
}

var placeholder = regexp.MustCompile(`\{(token|basic|session|csrf)(?::(\w+))?\}`)

// fill replaces the row's placeholders with this side's values:
// {token:USER} its token key, {basic:USER} Basic credentials with the demo
// password, {session:USER} the sessionid of the jar logged in as USER,
// {csrf} the csrftoken cookie of the row's jar.
func (s *side) fill(text, jar string) (string, error) {
	var err error
	out := placeholder.ReplaceAllStringFunc(text, func(m string) string {
		p := placeholder.FindStringSubmatch(m)
		switch p[1] {
		case "token":
			k, e := s.token(p[2])
			if e != nil {
				err = e
			}
			return k
		case "basic":
			return base64.StdEncoding.EncodeToString([]byte(p[2] + ":" + passwords[p[2]]))
		case "session":
			if e := s.login(p[2], p[2]); e != nil {
				err = e
			}
			return s.jars[p[2]]["sessionid"]
		default:
			return s.jars[jar]["csrftoken"]
		}
	})
	return out, err
}
