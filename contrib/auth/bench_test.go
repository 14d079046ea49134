package auth_test

import (
	"testing"

	"github.com/go-drf/drf/contrib/auth"
)

// BenchmarkCheck measures one password check by each hasher with Django's
// parameters (as the first hasher, a wrong password), and the checks that
// must cost as much as a wrong password under DefaultHashers: an unusable
// password and a hash of an algorithm not configured.
//
//	go test -run '^$' -bench Check -benchtime 10x ./contrib/auth/
func BenchmarkCheck(b *testing.B) {
	for _, h := range auth.AllHashers {
		encoded, err := h.Encode("correct horse")
		if err != nil {
			b.Fatal(err)
		}
		hs := auth.Hashers{h}
		b.Run(h.Algorithm(), func(b *testing.B) {
			for b.Loop() {
				hs.Check("battery staple", encoded)
			}
		})
	}
	for name, encoded := range map[string]string{
		"default/unusable": "!l890Qk2vE28Ab6mabJtUJoD6IX4jmJVUhvbNUvbQ",
		"default/unknown":  "md5$salt$0123456789abcdef0123456789abcdef",
	} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				auth.DefaultHashers.Check("battery staple", encoded)
			}
		})
	}
}
