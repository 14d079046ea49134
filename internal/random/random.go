// Package random draws the random strings of salts, session keys and CSRF
// secrets from crypto/rand.
package random

import "crypto/rand"

// String returns n characters drawn uniformly from alphabet (at most 256
// characters), as Django's get_random_string does.
func String(n int, alphabet string) string {
	// Bytes at or above limit are rejected so every character is equally likely.
	limit := 256 - 256%len(alphabet)
	out := make([]byte, 0, n)
	buf := make([]byte, 2*n)
	for len(out) < n {
		_, _ = rand.Read(buf) // crypto/rand.Read never fails
		for _, b := range buf {
			if int(b) < limit && len(out) < n {
				out = append(out, alphabet[int(b)%len(alphabet)])
			}
		}
	}
	return string(out)
}
