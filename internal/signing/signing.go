// Package signing is Django's django.core.signing, as far as the session
// framework uses it, byte for byte: salted HMACs (salted_hmac), the
// TimestampSigner with SHA-256 and fallback keys (SECRET_KEY_FALLBACKS),
// and dumps/loads, the signed, optionally zlib-compressed, URL-safe base64
// JSON in which Django stores session data.
package signing

import (
	"bytes"
	"compress/zlib"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/go-drf/drf/internal/pycompat"
)

// ErrBadSignature is returned for a value whose signature no key makes.
var ErrBadSignature = errors.New("signing: bad signature")

// SaltedHMAC is Django's salted_hmac(keySalt, value, secret,
// algorithm="sha256"): an HMAC-SHA256 of value under the SHA-256 of
// keySalt+secret.
func SaltedHMAC(keySalt, value, secret string) []byte {
	key := sha256.Sum256([]byte(keySalt + secret))
	mac := hmac.New(sha256.New, key[:])
	mac.Write([]byte(value))
	return mac.Sum(nil)
}

// A Signer is Django's TimestampSigner(key, salt=Salt, algorithm="sha256",
// fallback_keys=Fallbacks).
type Signer struct {
	// Key signs (Django's SECRET_KEY).
	Key string
	// Fallbacks are older keys whose signatures are still accepted
	// (Django's SECRET_KEY_FALLBACKS).
	Fallbacks []string
	// Salt namespaces the signatures, e.g. "django.contrib.sessions.SessionStore".
	Salt string
}

// signature is Django's Signer.signature(value, key).
func (s Signer) signature(value, key string) string {
	return base64.RawURLEncoding.EncodeToString(SaltedHMAC(s.Salt+"signer", value, key))
}

// Sign appends to value the time now and a signature of both:
// "value:timestamp:signature".
func (s Signer) Sign(value string, now time.Time) string {
	value += ":" + base62(now.Unix())
	return value + ":" + s.signature(value, s.Key)
}

// Unsign returns the value Sign signed, or ErrBadSignature when neither
// Key nor a fallback signed it. The timestamp is not checked: Django's
// sessions expire by their row, not their signature.
func (s Signer) Unsign(signed string) (string, error) {
	i := strings.LastIndexByte(signed, ':')
	if i < 0 {
		return "", ErrBadSignature
	}
	value, sig := signed[:i], []byte(signed[i+1:])
	ok := false
	for _, key := range append([]string{s.Key}, s.Fallbacks...) {
		// Every key is tried, so that the time does not tell which matched.
		ok = hmac.Equal(sig, []byte(s.signature(value, key))) || ok
	}
	j := strings.LastIndexByte(value, ':')
	if !ok || j < 0 {
		return "", ErrBadSignature
	}
	return value[:j], nil
}

// Dumps is Django's signing.dumps(v, salt=Salt, compress=compress) with
// its JSONSerializer: v as compact, ASCII-only JSON (Python's json.dumps),
// zlib-compressed when compress is set and that is shorter (then marked
// by a leading "."), URL-safe base64 without padding, signed.
func (s Signer) Dumps(v any, compress bool, now time.Time) (string, error) {
	data, err := pycompat.JSONDumps(v)
	if err != nil {
		return "", err
	}
	prefix := ""
	if compress {
		var buf bytes.Buffer
		zw := zlib.NewWriter(&buf)
		_, _ = zw.Write(data)
		_ = zw.Close()
		if buf.Len() < len(data)-1 {
			data, prefix = buf.Bytes(), "."
		}
	}
	return s.Sign(prefix+base64.RawURLEncoding.EncodeToString(data), now), nil
}

// Loads is Django's signing.loads(signed, salt=Salt): it checks the
// signature, decodes, decompresses, and unmarshals the JSON into v. Bytes
// beyond ASCII are read as Latin-1, as Django's JSONSerializer does.
func (s Signer) Loads(signed string, v any) error {
	value, err := s.Unsign(signed)
	if err != nil {
		return err
	}
	compressed := strings.HasPrefix(value, ".")
	value = strings.TrimPrefix(value, ".")
	data, ok := pycompat.URLSafeB64Decode(value + strings.Repeat("=", (4-len(value)%4)%4))
	if !ok {
		return errors.New("signing: incorrect base64 padding")
	}
	if compressed {
		zr, err := zlib.NewReader(bytes.NewReader(data))
		if err != nil {
			return fmt.Errorf("signing: %w", err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			return fmt.Errorf("signing: %w", err)
		}
	}
	return json.Unmarshal(pycompat.Latin1(data), v)
}

// base62 is Django's base62 encoding of timestamps.
func base62(n int64) string {
	const digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	if n <= 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 62 {
		b = append(b, digits[n%62])
	}
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}
