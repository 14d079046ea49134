package random

import (
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	const alphabet = "abc"
	seen := map[rune]int{}
	for range 200 {
		s := String(30, alphabet)
		if len(s) != 30 {
			t.Fatalf("length %d", len(s))
		}
		for _, c := range s {
			if !strings.ContainsRune(alphabet, c) {
				t.Fatalf("%q outside the alphabet", c)
			}
			seen[c]++
		}
	}
	for _, c := range alphabet {
		if n := seen[c]; n < 1800 || n > 2200 {
			t.Errorf("%q drawn %d times of 6000, want about 2000", c, n)
		}
	}
	if String(32, alphabet) == String(32, alphabet) {
		t.Error("two draws are equal")
	}
}
