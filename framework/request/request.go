// Package request holds the Request wrapper the framework hands to views:
// an *http.Request plus the user and auth it authenticates as (lazily, on
// first access, once), the parsed body, and the API version.
package request

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/internal/formats"
	"github.com/go-drf/drf/internal/pycompat"
)

// Authenticator is an authentication scheme. Authenticate returns the user
// and auth on success; (nil, nil, nil) when it does not attempt (the next
// scheme is tried); or an authentication-failed error, which stops
// authentication at once.
type Authenticator interface {
	Authenticate(r *Request) (User, any, error)
}

// AuthenticatorChecker is implemented by authentication schemes (and
// their stores) that can tell at registration that they cannot work: a
// scheme without its store. Registration of a view fails with the error.
// contrib's token stores install their model on their database then, so
// that deleting a user deletes its tokens from the first request on, as
// Django's installed authtoken app does.
type AuthenticatorChecker interface {
	CheckAuthenticator() error
}

// Challenger is implemented by schemes that supply a WWW-Authenticate value;
// a denied unauthenticated request is then 401 rather than 403.
type Challenger interface {
	AuthenticateHeader(r *Request) string
}

// Parser parses request bodies of one media type.
type Parser interface {
	// MediaType is the type the parser accepts, e.g. "application/json".
	MediaType() string
	// Parse reads body; params are the Content-Type's parameters.
	Parse(body io.Reader, params map[string]string) (any, error)
}

// FieldsParser is implemented by parsers of form bodies, whose number of
// fields the view bounds (Django's DATA_UPLOAD_MAX_NUMBER_FIELDS).
// ParseFields is Parse refusing a body of more than maxFields fields with
// exceptions.TooManyFields; a negative maxFields is no limit.
type FieldsParser interface {
	Parser
	ParseFields(body io.Reader, params map[string]string, maxFields int) (any, error)
}

// UploadParser is implemented by parsers that stream files as Django's
// upload handlers do (MultiPartParser, FileUploadParser): their body is
// not capped as a whole by MaxBodyBytes, which ParseUpload applies to
// what is not a file (DATA_UPLOAD_MAX_MEMORY_SIZE), refusing more with an
// *http.MaxBytesError. The temporary files it keeps are removed by
// cleanup, which the Request calls when it is closed (Close), once the
// view has answered.
type UploadParser interface {
	Parser
	ParseUpload(r *http.Request, body io.Reader, limits UploadLimits) (data any, cleanup func(), err error)
}

// UploadLimits are the view's bounds on an upload.
type UploadLimits struct {
	// MaxFields is MaxNumberFields (0: the parser's default, negative:
	// no limit).
	MaxFields int
	// MaxBytes is MaxBodyBytes, for the parts that are not files.
	MaxBytes int64
}

// StreamsUploads reports whether the parser of parsers that a request of
// contentType goes to is an UploadParser, whose body MaxBodyBytes does
// not cap as a whole.
func StreamsUploads(parsers []Parser, contentType string) bool {
	_, ok := parserFor(parsers, contentType).(UploadParser)
	return ok
}

// parserFor returns the first of parsers that takes contentType, as
// Django reads it, nil when none does.
func parserFor(parsers []Parser, contentType string) Parser {
	mt, _ := pycompat.ParseHeader(cmp.Or(contentType, "application/octet-stream"))
	mt = strings.ToLower(mt)
	for _, p := range parsers {
		if matchMedia(p.MediaType(), mt) {
			return p
		}
	}
	return nil
}

// WrappedError is an authenticator failure that is not an authentication
// failure (a bug, a broken database): it is surfaced, never turned into
// "anonymous".
type WrappedError struct {
	Scheme Authenticator
	Err    error
}

func (e *WrappedError) Error() string {
	return fmt.Sprintf("authenticator %T failed: %v", e.Scheme, e.Err)
}

func (e *WrappedError) Unwrap() error { return e.Err }

// Request wraps the incoming *http.Request.
type Request struct {
	*http.Request

	// config is the view's, shared by its requests.
	config *Config

	authDone      bool
	user          User
	auth          any
	authenticator Authenticator
	authErr       error
	// decided is 1 + the index of the scheme that authenticated or
	// refused the request, 0 when none did.
	decided int

	dataDone bool
	data     any
	dataErr  error
	cleanup  func()

	query url.Values

	version          string
	versioningScheme Versioner

	vary []string
	// varyBuf backs vary for the usual one or two names.
	varyBuf [2]string

	// answerHeader holds the fields AddAnswerHeader gave every answer.
	answerHeader http.Header

	// AcceptedMediaType is the media type content negotiation chose.
	AcceptedMediaType string
	// AcceptedRenderer is the renderer content negotiation chose (DRF's
	// request.accepted_renderer), nil before it ran or when it failed.
	AcceptedRenderer Renderer
}

// Renderer is a renderer as content negotiation chooses it: by its media
// type and its format (?format=). framework.Renderer is one that renders.
type Renderer interface {
	// MediaType is what the renderer produces, e.g. "application/json".
	MediaType() string
	// Format is its short name for ?format=, e.g. "json" or "api".
	Format() string
}

// Config is what a Request needs from the view's settings.
type Config struct {
	Authenticators []Authenticator
	Parsers        []Parser
	// MaxNumberFields bounds the fields of form bodies, for the parsers
	// that are FieldsParsers; 0 leaves them their own default, a negative
	// value is no limit.
	MaxNumberFields int
	// UnauthenticatedUser builds request.user when no scheme succeeds;
	// nil gives AnonymousUser.
	UnauthenticatedUser func() User
	// UnauthenticatedToken is request.auth when no scheme succeeds.
	UnauthenticatedToken any
	// VersionParam is the view's VERSION_PARAM, for reversing URLs.
	VersionParam string
	// FormatParam is the view's URL_FORMAT_OVERRIDE, kept by reversed URLs.
	FormatParam string
	// Logger receives what the request logs (a body it could not read);
	// nil gives slog.Default().
	Logger *slog.Logger
	// Compatibility is the DRF and Django release the view answers as
	// (Settings.Compatibility), for the serializers' answers that differ.
	Compatibility compat.Level
	// Formats are the view's field formats and time zone
	// (Settings.Formats, compiled), for the serializers; nil gives
	// formats.Default.
	Formats *formats.Compiled
	// MaxBodyBytes is UploadLimits.MaxBytes, for UploadParsers.
	MaxBodyBytes int64
}

// New wraps r, with a copy of c.
func New(r *http.Request, c Config) *Request { return c.Wrap(r) }

// Wrap wraps r with c itself, not a copy: what a view does with the
// Config it keeps for all its requests, which must not change while they
// run.
func (c *Config) Wrap(r *http.Request) *Request { return &Request{Request: r, config: c} }

// noConfig is the Config of a Request built without New or Wrap.
var noConfig Config

// cfg returns the request's Config.
func (r *Request) cfg() *Config {
	if r.config == nil {
		return &noConfig
	}
	return r.config
}

// Close removes the temporary files of the request's uploads, as Django
// closes request._files when the response is done; the view calls it
// once it has answered, whatever happened. Closing twice is harmless.
func (r *Request) Close() {
	if f := r.cleanup; f != nil {
		r.cleanup = nil
		f()
	}
}

// Compatibility returns the DRF and Django release the view answers as
// (Config.Compatibility).
func (r *Request) Compatibility() compat.Level { return r.cfg().Compatibility }

// Formats returns the view's field formats and time zone
// (Config.Formats), formats.Default when it has none.
func (r *Request) Formats() *formats.Compiled {
	if r.cfg().Formats == nil {
		return formats.Default
	}
	return r.cfg().Formats
}

// As returns a copy of r for another method, with r's user and version,
// as DRF's clone_request: what the browsable page and OPTIONS metadata ask
// the permissions ("may this user send PUT?"). It has no body.
func As(r *Request, method string) *Request {
	hr := r.Request.Clone(r.Context())
	hr.Method, hr.Body, hr.ContentLength = method, http.NoBody, 0
	c := r.cfg()
	as := New(hr, Config{VersionParam: c.VersionParam, FormatParam: c.FormatParam, Compatibility: c.Compatibility, Formats: c.Formats})
	as.SetUser(r.User(), r.Auth())
	as.SetVersion(r.Version(), r.VersioningScheme())
	return as
}

// Authenticators returns the view's schemes, in order; a request marked
// by ForceAuthenticate has the forced scheme as its only one (looked up
// here, at authentication, so that New stays free of it).
func (r *Request) Authenticators() []Authenticator {
	if f := forcedScheme(r.Request); f != nil {
		return []Authenticator{f}
	}
	return r.cfg().Authenticators
}

// Authenticate runs the schemes once; later calls return the cached result.
func (r *Request) Authenticate() error {
	if r.authDone {
		return r.authErr
	}
	r.authDone = true
	for i, a := range r.Authenticators() {
		user, auth, err := runScheme(a, r)
		if err != nil || user != nil {
			r.decided = i + 1
		}
		if err != nil {
			var api exceptions.StatusCoder
			if !errors.As(err, &api) {
				err = &WrappedError{Scheme: a, Err: err}
			}
			r.authErr = err
			r.setAnonymous()
			return err
		}
		if user != nil {
			r.user, r.auth, r.authenticator = user, auth, a
			return nil
		}
	}
	r.setAnonymous()
	return nil
}

func runScheme(a Authenticator, r *Request) (u User, auth any, err error) {
	defer func() {
		if p := recover(); p != nil {
			u, auth, err = nil, nil, fmt.Errorf("panic: %v", p)
		}
	}()
	return a.Authenticate(r)
}

func (r *Request) setAnonymous() {
	if r.cfg().UnauthenticatedUser != nil {
		r.user = r.cfg().UnauthenticatedUser()
	} else {
		r.user = AnonymousUser{}
	}
	r.auth = r.cfg().UnauthenticatedToken
}

// User returns the authenticated user, or the anonymous user. Use
// Authenticate to see an authentication error; after one, User is anonymous.
func (r *Request) User() User {
	_ = r.Authenticate()
	return r.user
}

// Auth returns the scheme's extra information (a token record), or the
// unauthenticated token.
func (r *Request) Auth() any {
	_ = r.Authenticate()
	return r.auth
}

// SuccessfulAuthenticator returns the scheme that authenticated the request, or nil.
func (r *Request) SuccessfulAuthenticator() Authenticator {
	_ = r.Authenticate()
	return r.authenticator
}

// AuthenticationResult tells, without running the schemes, whether
// authentication has run and how it ended: the index in Authenticators of
// the scheme that authenticated or refused the request (-1 when none
// applied, or the user was set with SetUser), the user (the anonymous
// user unless one authenticated) and the scheme's error. What logs and
// telemetry read after the view ran.
func (r *Request) AuthenticationResult() (done bool, scheme int, user User, err error) {
	return r.authDone, r.decided - 1, r.user, r.authErr
}

// SetUser sets the user explicitly (after a login), with no scheme.
func (r *Request) SetUser(u User, auth any) {
	r.authDone, r.authErr, r.decided = true, nil, 0
	r.user, r.auth, r.authenticator = u, auth, nil
}

// Version returns the API version, "" when none.
func (r *Request) Version() string { return r.version }

// VersioningScheme returns the scheme that determined the version, or nil.
func (r *Request) VersioningScheme() Versioner { return r.versioningScheme }

// VersionParam returns the name of the version parameter (VERSION_PARAM).
func (r *Request) VersionParam() string { return r.cfg().VersionParam }

// FormatParam returns the name of the format query parameter
// (URL_FORMAT_OVERRIDE), "" when the request was built outside a view.
func (r *Request) FormatParam() string { return r.cfg().FormatParam }

// formatSuffixParam is the URL parameter of a format suffix, DRF's
// FORMAT_SUFFIX_KWARG: reverse.FormatSuffixParam, which imports this package.
const formatSuffixParam = "format"

// FormatSuffix returns the format suffix of the request's URL ("json" for
// "/books/1.json"), "" without one: DRF's view.format_kwarg, which the
// links built through the request keep (reverse.Link).
func (r *Request) FormatSuffix() string { return r.PathValue(formatSuffixParam) }

// SetVersion records the version and the scheme that determined it.
func (r *Request) SetVersion(version string, scheme Versioner) {
	r.version, r.versioningScheme = version, scheme
}

// Vary records that the answer depends on a request header (a session
// scheme reading the session cookie adds "Cookie"); the view adds the
// recorded names to the answer's Vary header.
func (r *Request) Vary(header string) {
	for _, h := range r.vary {
		if h == header {
			return
		}
	}
	if r.vary == nil {
		r.vary = r.varyBuf[:0]
	}
	r.vary = append(r.vary, header)
}

// VaryHeaders returns the names recorded by Vary.
func (r *Request) VaryHeaders() []string { return r.vary }

// AddAnswerHeader adds a field that the answer carries whatever it is, a
// success or an error (a throttle's RateLimit fields): the view writes
// the fields after the answer's own, replacing those of the same name.
func (r *Request) AddAnswerHeader(name, value string) {
	if r.answerHeader == nil {
		r.answerHeader = http.Header{}
	}
	r.answerHeader.Add(name, value)
}

// AnswerHeader returns the fields added by AddAnswerHeader, nil when none.
func (r *Request) AnswerHeader() http.Header { return r.answerHeader }

// QueryParams returns the query string as Django reads it (QueryDict),
// parsed once: fields split on "&" only, "+" a space, a "%" not followed
// by two hex digits kept as it is, escapes decoded in the request's
// charset with errors replaced (pycompat.AppendQuery).
func (r *Request) QueryParams() url.Values {
	if r.query == nil {
		r.query = pycompat.ParseQuery(r.URL.RawQuery, pycompat.CodecOf(r.Charset()))
	}
	return r.query
}

// QueryParam returns the last value of the query parameter name, "" when
// there is none: DRF's request.query_params.get(name).
func (r *Request) QueryParam(name string) string { return pycompat.QueryGet(r.QueryParams(), name) }

// Logger returns the logger of the request's view (Config.Logger), or
// slog.Default() for a request built without one.
func (r *Request) Logger() *slog.Logger {
	if r.cfg().Logger == nil {
		return slog.Default()
	}
	return r.cfg().Logger
}

// Charset returns the charset parameter of the Content-Type, "" without
// one: Django's HttpRequest.encoding, in which it decodes the query string
// and DRF's parsers the body (pycompat.CodecOf; one Python does not know
// is read as UTF-8).
func (r *Request) Charset() string {
	charset, _ := pycompat.HeaderParam(r.Header.Get("Content-Type"), "charset")
	return charset
}

// Data returns the parsed body: a map for JSON objects and forms, the JSON
// value otherwise, nil when the request has no body. Errors are 400 for a
// malformed body ("The request body could not be read.", the cause logged, for one that could
// not be read), 413 for one over the limit and 415 for a content type no
// parser accepts.
func (r *Request) Data() (any, error) {
	if r.dataDone {
		return r.data, r.dataErr
	}
	r.dataDone = true
	r.data, r.dataErr = r.parse()
	return r.data, r.dataErr
}

func (r *Request) parse() (any, error) {
	ct := r.Header.Get("Content-Type")
	if r.Body == nil || r.Body == http.NoBody || (r.ContentLength == 0 && ct == "") {
		return nil, nil
	}
	// The Content-Type as Django reads it; a missing type is matched as
	// application/octet-stream but named as sent.
	mt, params := pycompat.ParseHeader(cmp.Or(ct, "application/octet-stream"))
	mt = strings.ToLower(mt)
	if base, _, _ := strings.Cut(ct, ";"); !pycompat.IsASCII(base) {
		// DRF reads the media type as ASCII and fails (500) on one that
		// is not: no parser takes it.
		return nil, exceptions.UnsupportedMediaType(ct)
	}
	c := r.cfg()
	for _, p := range c.Parsers {
		if matchMedia(p.MediaType(), mt) {
			body := &bodyReader{r: r.Body}
			var v any
			var err error
			if up, ok := p.(UploadParser); ok {
				v, r.cleanup, err = up.ParseUpload(r.Request, body, UploadLimits{MaxFields: c.MaxNumberFields, MaxBytes: c.MaxBodyBytes})
			} else if fp, ok := p.(FieldsParser); ok && c.MaxNumberFields != 0 {
				v, err = fp.ParseFields(body, params, c.MaxNumberFields)
			} else {
				v, err = p.Parse(body, params)
			}
			if err == nil {
				return v, nil
			}
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) || errors.As(body.err, &tooLarge) {
				return nil, exceptions.RequestTooLarge()
			}
			if body.err != nil {
				// A read failure (a timeout, a reset, a cut-off body): its
				// text names the server's addresses, so it goes to the log.
				r.Logger().WarnContext(r.Context(), "request body unreadable", "method", r.Method, "path", r.URL.Path, "error", body.err.Error())
				return nil, exceptions.ParseError(msgUnreadableBody)
			}
			return nil, err
		}
	}
	return nil, exceptions.UnsupportedMediaType(ct)
}

// msgUnreadableBody is the detail of the 400 answered when reading the
// body failed (a read timeout, a connection reset, a body shorter than its
// Content-Length); the failure itself is logged.
const msgUnreadableBody = "The request body could not be read."

// bodyReader passes a body on to a parser and keeps the first error that
// reading it returned, other than io.EOF.
type bodyReader struct {
	r   io.Reader
	err error
}

func (b *bodyReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil && err != io.EOF && b.err == nil {
		b.err = err
	}
	return n, err
}

// matchMedia reports whether a parser of type accepts reads a body of
// type mt; as in DRF, "*" matches any main or sub type on either side.
func matchMedia(accepts, mt string) bool {
	am, as, _ := strings.Cut(accepts, "/")
	mm, ms, _ := strings.Cut(mt, "/")
	return (am == "*" || mm == "*" || am == mm) && (as == "*" || ms == "*" || as == ms)
}

// FormList holds the values of a form field sent more than once, in
// order, as Django's QueryDict keeps them: a field reads the last
// (QueryDict[key]), a multiple choice or list field all of them
// (QueryDict.getlist). The form parsers give one for a repeated name
// only; a name sent once is a plain string.
type FormList []string

// MarshalJSON writes the last value, as Python's json.dumps writes a
// QueryDict (its items() are the last values): DRF renders request.data
// so.
func (l FormList) MarshalJSON() ([]byte, error) { return json.Marshal(FormValue(l)) }

// FormValue is v, a value of parsed form data, as one value: the last of
// a FormList, else v itself.
func FormValue(v any) any {
	if l, ok := v.(FormList); ok && len(l) > 0 {
		return l[len(l)-1]
	}
	return v
}

// AddFormValue adds value to form under key, as a form parser reads a
// body: a key's first value is a string, a second makes it a FormList.
func AddFormValue(form map[string]any, key, value string) {
	switch prev := form[key].(type) {
	case string:
		form[key] = FormList{prev, value}
	case FormList:
		form[key] = append(prev, value)
	default:
		form[key] = value
	}
}
