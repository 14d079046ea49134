// Package exceptions holds the API errors of the framework, as values: each
// carries its HTTP status, a detail in DRF's wording and a machine code.
// Views return them; the exception handler renders them.
package exceptions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"
)

// APIException is an error with an HTTP status, a detail and a code.
// Detail is a string (rendered as {"detail": ...}) or, for validation
// errors, a structure rendered as it is.
type APIException struct {
	Status int
	Detail any
	Code   string
	// Header holds headers the answer must carry (WWW-Authenticate, Retry-After).
	Header http.Header
	// Wait is how long a throttled client should wait.
	Wait time.Duration
}

// Error returns the detail as text.
func (e *APIException) Error() string {
	if s, ok := e.Detail.(string); ok {
		return s
	}
	b, _ := json.Marshal(e.Detail)
	return string(b)
}

// StatusCode returns the HTTP status.
func (e *APIException) StatusCode() int { return e.Status }

// StatusCoder is an error with its own HTTP status: to the framework, an
// API error rather than a server error (APIException is one).
type StatusCoder interface {
	error
	StatusCode() int
}

// Is reports whether target is an APIException with the same code, so that
// errors.Is(err, exceptions.NotAuthenticated()) works.
func (e *APIException) Is(target error) bool {
	t, ok := target.(*APIException)
	return ok && t.Code == e.Code
}

func newException(status int, code, def string, detail []string) *APIException {
	d := def
	if len(detail) > 0 && detail[0] != "" {
		d = detail[0]
	}
	return &APIException{Status: status, Detail: d, Code: code}
}

// Codes of the built-in exceptions that callers tell apart by Code, as
// DRF names them (default_code). errors.Is(err, exceptions.NotFound())
// tells any built-in exception by its code.
const (
	CodeAuthenticationFailed = "authentication_failed"
	CodeNotAuthenticated     = "not_authenticated"
	CodeThrottled            = "throttled"
	CodeInvalid              = "invalid"
)

// Codes of the other built-in exceptions, as DRF names them.
const (
	codeParseError           = "parse_error"
	codePermissionDenied     = "permission_denied"
	codeNotFound             = "not_found"
	codeMethodNotAllowed     = "method_not_allowed"
	codeNotAcceptable        = "not_acceptable"
	codeUnsupportedMediaType = "unsupported_media_type"
	codeTooLarge             = "request_too_large"
	codeServiceUnavailable   = "service_unavailable"
)

// ParseError is 400 "Malformed request." or the given detail.
func ParseError(detail ...string) *APIException {
	return newException(http.StatusBadRequest, codeParseError, "Malformed request.", detail)
}

// AuthenticationFailed is 401 "Incorrect authentication credentials." or the given detail.
func AuthenticationFailed(detail ...string) *APIException {
	return newException(http.StatusUnauthorized, CodeAuthenticationFailed, "Incorrect authentication credentials.", detail)
}

// NotAuthenticated is 401 "Authentication credentials were not provided."
func NotAuthenticated(detail ...string) *APIException {
	return newException(http.StatusUnauthorized, CodeNotAuthenticated, "Authentication credentials were not provided.", detail)
}

// PermissionDenied is 403 "You do not have permission to perform this action." or the given detail.
func PermissionDenied(detail ...string) *APIException {
	return newException(http.StatusForbidden, codePermissionDenied, "You do not have permission to perform this action.", detail)
}

// NotFound is 404 "Not found." or the given detail.
func NotFound(detail ...string) *APIException {
	return newException(http.StatusNotFound, codeNotFound, "Not found.", detail)
}

// MethodNotAllowed is 405 `Method "M" not allowed.`
func MethodNotAllowed(method string) *APIException {
	return newException(http.StatusMethodNotAllowed, codeMethodNotAllowed, fmt.Sprintf("Method %q not allowed.", method), nil)
}

// NotAcceptable is 406 "Could not satisfy the request Accept header." or the given detail.
func NotAcceptable(detail ...string) *APIException {
	return newException(http.StatusNotAcceptable, codeNotAcceptable, "Could not satisfy the request Accept header.", detail)
}

// UnsupportedMediaType is 415 `Unsupported media type "T" in request.`,
// T as the client sent it.
func UnsupportedMediaType(mediaType string) *APIException {
	return newException(http.StatusUnsupportedMediaType, codeUnsupportedMediaType, `Unsupported media type "`+mediaType+`" in request.`, nil)
}

// RequestTooLarge is 413 "Request body is too large."
func RequestTooLarge() *APIException {
	return newException(http.StatusRequestEntityTooLarge, codeTooLarge, "Request body is too large.", nil)
}

// TooManyFields is the parse error of a query string or form body with
// more fields than allowed: 400 "The number of GET/POST parameters
// exceeded settings.DATA_UPLOAD_MAX_NUMBER_FIELDS.", Django's wording.
func TooManyFields() *APIException {
	return ParseError("The number of GET/POST parameters exceeded settings.DATA_UPLOAD_MAX_NUMBER_FIELDS.")
}

// Throttled is 429 "Request was throttled. Expected available in N seconds."
// with Retry-After; a zero wait gives the bare sentence.
func Throttled(wait time.Duration) *APIException {
	e := newException(http.StatusTooManyRequests, CodeThrottled, "Request was throttled.", nil)
	if wait > 0 {
		secs := e.retryAfter(wait)
		unit := "seconds"
		if secs == 1 {
			unit = "second"
		}
		e.Detail = fmt.Sprintf("Request was throttled. Expected available in %d %s.", secs, unit)
	}
	return e
}

// ServiceUnavailable is 503 "Service temporarily unavailable, try again
// later.", the custom exception of DRF's documentation (code
// "service_unavailable"), or the given detail; a positive wait sets
// Retry-After. The framework answers it when the database is unavailable.
func ServiceUnavailable(wait time.Duration, detail ...string) *APIException {
	e := newException(http.StatusServiceUnavailable, codeServiceUnavailable, "Service temporarily unavailable, try again later.", detail)
	if wait > 0 {
		e.retryAfter(wait)
	}
	return e
}

// retryAfter sets e's wait and its Retry-After header, in whole seconds
// rounded up, and returns them.
func (e *APIException) retryAfter(wait time.Duration) int {
	secs := int(math.Ceil(wait.Seconds()))
	e.Wait = wait
	e.Header = http.Header{"Retry-After": {strconv.Itoa(secs)}}
	return secs
}

// FieldError is the messages of one field of a validation error.
type FieldError struct {
	Field    string
	Messages []string
	// Items are the errors of a list's or a dictionary's items, by index
	// or key, rendered in place of Messages when set (DRF's ListField and
	// DictField: {"tags": {"1": ["A valid integer is required."]}}).
	Items ValidationErrors
	// List is the errors of a nested list of many=True at the DRF 3.14
	// level, each item's in order (a ValidationErrors, {} for a valid
	// item, or its messages), rendered in place of Messages when set:
	// {"items": [{}, {"name": ["This field is required."]}]}.
	List []any
}

// ValidationErrors maps fields to their messages and keeps the fields in
// the order they were added. It renders as {"field": ["message", ...]}.
type ValidationErrors []FieldError

// Add appends msg to field's messages.
func (v *ValidationErrors) Add(field, msg string) {
	for i := range *v {
		if (*v)[i].Field == field {
			(*v)[i].Messages = append((*v)[i].Messages, msg)
			return
		}
	}
	*v = append(*v, FieldError{Field: field, Messages: []string{msg}})
}

// AddItem appends msg to the messages of item (an index or a key) of
// field's list or dictionary.
func (v *ValidationErrors) AddItem(field, item, msg string) {
	for i := range *v {
		if (*v)[i].Field == field {
			(*v)[i].Items.Add(item, msg)
			return
		}
	}
	var items ValidationErrors
	items.Add(item, msg)
	*v = append(*v, FieldError{Field: field, Items: items})
}

// Get returns field's messages.
func (v ValidationErrors) Get(field string) []string {
	for _, f := range v {
		if f.Field == field {
			return f.Messages
		}
	}
	return nil
}

// MarshalJSON renders the fields in order.
func (v ValidationErrors) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(f.Field)
		if err != nil {
			return nil, err
		}
		var m []byte
		switch {
		case f.List != nil:
			m, err = json.Marshal(f.List)
		case f.Items != nil:
			m, err = f.Items.MarshalJSON()
		default:
			m, err = json.Marshal(f.Messages)
		}
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(m)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// NonFieldErrors is the key of errors that belong to no single field.
const NonFieldErrors = "non_field_errors"

// ValidationError is 400 with the field errors as the body.
func ValidationError(errs ValidationErrors) *APIException {
	return &APIException{Status: http.StatusBadRequest, Detail: errs, Code: CodeInvalid}
}
