package signing_test

import (
	"encoding/hex"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/internal/signing"
)

// Values signed by Debian's Django 3.2 at time 1700000000 with SECRET_KEY
// "django-insecure-test-key" and the session salt.
const (
	djangoSession           = "eyJfYXV0aF91c2VyX2lkIjoiNDIiLCJfYXV0aF91c2VyX2JhY2tlbmQiOiJkamFuZ28uY29udHJpYi5hdXRoLmJhY2tlbmRzLk1vZGVsQmFja2VuZCIsIl9hdXRoX3VzZXJfaGFzaCI6ImFiYWJhYmFiYWJhYmFiYWJhYmFiYWJhYmFiYWJhYmFiYWJhYmFiYWJhYmFiYWJhYmFiYWJhYmFiYWJhYmFiYWIifQ:1r31eq:9BZLbJFeHmRLeBExJMpLGVMDbppZoiplQXT4XL86t4U"
	djangoSessionCompressed = ".eJyrVopPLC3JiC8tTi2Kz0xRslIyMVLSQRZMSkzOTs0DyaRkJeal5-sl5-eVFGUm6YGU6EFli_V881NSc5ygalEMyEgszgDqTkyiDCrVAgD0PT7i:1r31eq:hA0Ae6c-BFhzScR60_muAgdIMw1U1OBWGSAo8giugCY"
	djangoUnicode           = "eyJuYW1lIjoiWm9cdTAwZWIgXHVkODNkXHVkZTAwIDwmPiJ9:1r31eq:vs5jg789_gds4IyPSQHwSqGa-EyL7dv7S97DN0rEb0A"
	djangoHello             = "hello:1r31eq:L4fbn4fduHUgkh8XcXpwpdnzdF2ndhOgNX4wlV5us8U"
)

var (
	signer = signing.Signer{Key: "django-insecure-test-key", Salt: "django.contrib.sessions.SessionStore"}
	then   = time.Unix(1700000000, 500000000)
)

type session struct {
	UserID  string `json:"_auth_user_id"`
	Backend string `json:"_auth_user_backend"`
	Hash    string `json:"_auth_user_hash"`
}

var aliceSession = session{"42", "django.contrib.auth.backends.ModelBackend", strings.Repeat("ab", 32)}

func TestSignAsDjango(t *testing.T) {
	if got := signer.Sign("hello", then); got != djangoHello {
		t.Errorf("Sign = %q, Django's %q", got, djangoHello)
	}
	for _, c := range []struct {
		v    any
		want string
	}{
		{aliceSession, djangoSession},
		{map[string]string{"name": "Zoë 😀 <&>"}, djangoUnicode},
	} {
		got, err := signer.Dumps(c.v, false, then)
		if err != nil || got != c.want {
			t.Errorf("Dumps(%v) = %q, %v; Django's %q", c.v, got, err, c.want)
		}
	}
}

func TestLoadsDjangosValues(t *testing.T) {
	for _, signed := range []string{djangoSession, djangoSessionCompressed} {
		var got session
		if err := signer.Loads(signed, &got); err != nil || got != aliceSession {
			t.Errorf("Loads(%q) = %+v, %v", signed, got, err)
		}
	}
	var m map[string]string
	if err := signer.Loads(djangoUnicode, &m); err != nil || m["name"] != "Zoë 😀 <&>" {
		t.Errorf("Loads(unicode) = %q, %v", m, err)
	}
	if v, err := signer.Unsign(djangoHello); err != nil || v != "hello" {
		t.Errorf("Unsign = %q, %v", v, err)
	}
}

func TestCompressedRoundTrip(t *testing.T) {
	long := map[string]string{"a": strings.Repeat("compressible ", 50)}
	signed, err := signer.Dumps(long, true, time.Now())
	if err != nil || !strings.HasPrefix(signed, ".") {
		t.Fatalf("Dumps(compress) = %q, %v; want a compressed value", signed, err)
	}
	var back map[string]string
	if err := signer.Loads(signed, &back); err != nil || !reflect.DeepEqual(back, long) {
		t.Errorf("round trip = %v, %v", back, err)
	}
	// Not shorter compressed: stored as is.
	short, _ := signer.Dumps(map[string]int{"a": 1}, true, then)
	if short != "eyJhIjoxfQ:1r31eq:okpydDXtG5B_bW1UzGqyO_zKzxPWz6AvFEhgI6G8IIY" {
		t.Errorf("Dumps of a short value = %q, not Django's", short)
	}
}

func TestKeysSaltsAndTampering(t *testing.T) {
	var s session
	rotated := signing.Signer{Key: "new-key", Fallbacks: []string{"other", signer.Key}, Salt: signer.Salt}
	if err := rotated.Loads(djangoSession, &s); err != nil || s != aliceSession {
		t.Errorf("a fallback key's value: %+v, %v", s, err)
	}
	for name, c := range map[string]struct {
		signer signing.Signer
		signed string
	}{
		"other key":       {signing.Signer{Key: "other", Salt: signer.Salt}, djangoSession},
		"other salt":      {signing.Signer{Key: signer.Key, Salt: "django.core.signing"}, djangoSession},
		"tampered value":  {signer, "e" + djangoSession},
		"tampered sig":    {signer, djangoSession[:len(djangoSession)-1] + "V"},
		"no signature":    {signer, "eyJhIjoxfQ"},
		"no timestamp":    {signer, "eyJhIjoxfQ:okpydDXtG5B_bW1UzGqyO_zKzxPWz6AvFEhgI6G8IIY"},
		"empty":           {signer, ""},
		"short signature": {signer, "eyJhIjoxfQ:1r31eq:AAAAAAAAAAAAAAAAAAAAAAAAAAA"},
	} {
		if err := c.signer.Loads(c.signed, &s); !errors.Is(err, signing.ErrBadSignature) {
			t.Errorf("%s: Loads = %v, want ErrBadSignature", name, err)
		}
	}
	// Signed but not JSON, not base64, not zlib: errors, never a panic.
	for _, value := range []string{"bm90IGpzb24", "!!!", ".eJyrVopPLC3J"} {
		if err := signer.Loads(signer.Sign(value, then), &s); err == nil {
			t.Errorf("Loads of signed %q succeeded", value)
		}
	}
}

func TestSaltedHMACIsDjangos(t *testing.T) {
	got := signing.SaltedHMAC("django.contrib.auth.models.AbstractBaseUser.get_session_auth_hash", "pbkdf2_sha256$1000$x$y", "django-insecure-test-key")
	if h := hex.EncodeToString(got); h != "cddad522a7936aa3232b6fa2537d99d829d33d922c668a1418594d5c6f53a5c9" {
		t.Errorf("SaltedHMAC = %s, not Django's", h)
	}
}
