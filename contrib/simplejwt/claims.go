package simplejwt

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/golang-jwt/jwt/v5"
)

// Claim is one claim of a token's payload: its name and its JSON value.
type Claim struct {
	// Name is the claim's name, e.g. "user_id".
	Name string
	// Value is the claim's value as JSON, e.g. `2`.
	Value json.RawMessage
}

// Claims is a token's payload: its claims in the order they were written,
// as simplejwt (a Python dict) keeps them, so that a payload read and
// written again keeps its order and the claims this package does not know.
// It is golang-jwt's jwt.Claims, so that golang-jwt checks exp, nbf, iss
// and aud.
type Claims []Claim

// The claims of simplejwt's tokens.
const (
	ClaimTokenType = "token_type"
	ClaimExp       = "exp"
	ClaimIat       = "iat"
	ClaimJTI       = "jti"
	ClaimUserID    = "user_id"
)

// Raw returns the value of the claim name as JSON, and whether the payload
// has it.
func (c Claims) Raw(name string) (json.RawMessage, bool) {
	for _, cl := range c {
		if cl.Name == name {
			return cl.Value, true
		}
	}
	return nil, false
}

// Set gives the claim name the JSON value v: in its place when the payload
// has it, last otherwise (a Python dict's assignment).
func (c *Claims) Set(name string, v json.RawMessage) {
	for i := range *c {
		if (*c)[i].Name == name {
			(*c)[i].Value = v
			return
		}
	}
	*c = append(*c, Claim{Name: name, Value: v})
}

// SetString sets the claim name to the string s.
func (c *Claims) SetString(name, s string) {
	b, _ := json.Marshal(s)
	c.Set(name, b)
}

// SetInt sets the claim name to the integer n.
func (c *Claims) SetInt(name string, n int64) { c.Set(name, strconv.AppendInt(nil, n, 10)) }

// String returns the value of the claim name when it is a JSON string.
func (c Claims) String(name string) (string, bool) {
	raw, ok := c.Raw(name)
	if !ok {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// Text is the claim name as Django compares it with a text column: a
// string as it is, another value as its JSON ("5" for 5).
func (c Claims) Text(name string) string {
	if s, ok := c.String(name); ok {
		return s
	}
	raw, _ := c.Raw(name)
	return string(raw)
}

// UserID returns the user_id claim as a primary key: an integer, or a
// string of one (simplejwt 5.5 writes the id as a string). ok is false
// when the payload has no user_id claim.
func (c Claims) UserID() (id int64, valid, ok bool) {
	raw, ok := c.Raw(ClaimUserID)
	if !ok {
		return 0, false, false
	}
	text := string(raw)
	if s, isString := c.String(ClaimUserID); isString {
		text = s
	}
	id, err := strconv.ParseInt(text, 10, 64)
	return id, err == nil, true
}

// numericDate reads the claim name as golang-jwt's NumericDate (a number
// of seconds): nil when the payload has no such claim.
func (c Claims) numericDate(name string) (*jwt.NumericDate, error) {
	raw, ok := c.Raw(name)
	if !ok {
		return nil, nil
	}
	var d jwt.NumericDate
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, jwt.ErrInvalidType
	}
	return &d, nil
}

// GetExpirationTime returns the exp claim (jwt.Claims).
func (c Claims) GetExpirationTime() (*jwt.NumericDate, error) { return c.numericDate(ClaimExp) }

// GetIssuedAt returns the iat claim (jwt.Claims).
func (c Claims) GetIssuedAt() (*jwt.NumericDate, error) { return c.numericDate(ClaimIat) }

// GetNotBefore returns the nbf claim (jwt.Claims).
func (c Claims) GetNotBefore() (*jwt.NumericDate, error) { return c.numericDate("nbf") }

// GetIssuer returns the iss claim (jwt.Claims).
func (c Claims) GetIssuer() (string, error) { return c.stringClaim("iss") }

// GetSubject returns the sub claim (jwt.Claims).
func (c Claims) GetSubject() (string, error) { return c.stringClaim("sub") }

// GetAudience returns the aud claim, a string or a list of them (jwt.Claims).
func (c Claims) GetAudience() (jwt.ClaimStrings, error) {
	raw, ok := c.Raw("aud")
	if !ok {
		return nil, nil
	}
	var aud jwt.ClaimStrings
	if err := json.Unmarshal(raw, &aud); err != nil {
		return nil, jwt.ErrInvalidType
	}
	return aud, nil
}

func (c Claims) stringClaim(name string) (string, error) {
	if _, ok := c.Raw(name); !ok {
		return "", nil
	}
	s, ok := c.String(name)
	if !ok {
		return "", jwt.ErrInvalidType
	}
	return s, nil
}

// MarshalJSON writes the payload as a JSON object, its claims in order.
func (c Claims) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, cl := range c {
		if i > 0 {
			b = append(b, ',')
		}
		name, err := json.Marshal(cl.Name)
		if err != nil {
			return nil, err
		}
		b = append(append(b, name...), ':')
		b = append(b, cl.Value...)
	}
	return append(b, '}'), nil
}

// errNotObject is the error of a payload that is not a JSON object.
var errNotObject = errors.New("simplejwt: the payload is not a JSON object")

// UnmarshalJSON reads a JSON object, keeping its claims in order; a name
// given twice keeps its first place and its last value, as Python's json
// module reads it.
func (c *Claims) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return errNotObject
	}
	var out Claims
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		name, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		out.Set(name, v)
	}
	if _, err := dec.Token(); err != nil {
		return err
	}
	*c = out
	return nil
}
