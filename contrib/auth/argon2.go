package auth

import (
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Argon2Hasher is Django's Argon2PasswordHasher: Argon2id, version 19, a
// 16-byte hash, stored as "argon2$argon2id$v=19$m=<memory>,t=<time>,p=<parallelism>$<salt>$<hash>"
// (salt and hash in unpadded base64). Hashes of Argon2i, which Django
// wrote before 2.1, verify too and are rehashed on login.
type Argon2Hasher struct {
	// TimeCost is the number of passes; 0 means 2, Django's.
	TimeCost uint32
	// MemoryCost is the memory in KiB; 0 means 102400 (100 MiB), Django's.
	MemoryCost uint32
	// Parallelism is the number of lanes; 0 means 8, Django's.
	Parallelism uint8
}

// Django's Argon2 parameters.
const (
	argon2Time    = 2
	argon2Memory  = 102400
	argon2Threads = 8
	argon2KeyLen  = 16
)

// argon2Params are the parameters an Argon2 hash records.
type argon2Params struct {
	variant      string
	version      int
	memory, time uint32
	threads      uint8
	salt, hash   []byte
}

// Algorithm returns "argon2".
func (Argon2Hasher) Algorithm() string { return "argon2" }

func (h Argon2Hasher) params() argon2Params {
	p := argon2Params{variant: "argon2id", version: argon2.Version, memory: h.MemoryCost, time: h.TimeCost, threads: h.Parallelism}
	if p.memory == 0 {
		p.memory = argon2Memory
	}
	if p.time == 0 {
		p.time = argon2Time
	}
	if p.threads == 0 {
		p.threads = argon2Threads
	}
	return p
}

// Encode hashes password with a new salt.
func (h Argon2Hasher) Encode(password string) (string, error) {
	p := h.params()
	salt := []byte(newSalt())
	key := argon2.IDKey([]byte(password), salt, p.time, p.memory, p.threads, argon2KeyLen)
	return fmt.Sprintf("argon2$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", p.version, p.memory, p.time, p.threads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key)), nil
}

// Verify reports whether password is the one encoded.
func (h Argon2Hasher) Verify(password, encoded string) bool {
	p, ok := decodeArgon2(encoded)
	if !ok {
		return false
	}
	var key []byte
	switch p.variant {
	case "argon2id":
		key = argon2.IDKey([]byte(password), p.salt, p.time, p.memory, p.threads, uint32(len(p.hash)))
	case "argon2i":
		key = argon2.Key([]byte(password), p.salt, p.time, p.memory, p.threads, uint32(len(p.hash)))
	default:
		return false
	}
	return subtle.ConstantTimeCompare(key, p.hash) == 1
}

// MustUpdate reports whether encoded is not Argon2id with h's costs, a
// 16-byte hash and a salt as long as Django's.
func (h Argon2Hasher) MustUpdate(encoded string) bool {
	p, ok := decodeArgon2(encoded)
	want := h.params()
	return !ok || p.variant != want.variant || p.version != want.version || p.memory != want.memory ||
		p.time != want.time || p.threads != want.threads || len(p.hash) != argon2KeyLen ||
		shortSalt(len(p.salt)) // Django reads the salt as Latin-1
}

// HardenRuntime does nothing: as in Django, Argon2's cost is too involved
// to make up for.
func (Argon2Hasher) HardenRuntime(password, encoded string) {}

// decodeArgon2 parses an Argon2 hash of version 19, the only one this
// package computes.
func decodeArgon2(encoded string) (p argon2Params, ok bool) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "argon2" {
		return p, false
	}
	p.variant = parts[1]
	version, found := strings.CutPrefix(parts[2], "v=")
	var err error
	if p.version, err = strconv.Atoi(version); !found || err != nil || p.version != argon2.Version {
		return p, false
	}
	for _, kv := range strings.Split(parts[3], ",") {
		k, v, _ := strings.Cut(kv, "=")
		n, err := strconv.ParseUint(v, 10, 32)
		if err != nil {
			return p, false
		}
		switch k {
		case "m":
			p.memory = uint32(n)
		case "t":
			p.time = uint32(n)
		case "p":
			if n > 255 {
				return p, false
			}
			p.threads = uint8(n)
		default:
			return p, false
		}
	}
	if p.time < 1 || p.threads < 1 || p.memory < 8*uint32(p.threads) {
		return p, false
	}
	if p.salt, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(parts[4], "=")); err != nil {
		return p, false
	}
	if p.hash, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(parts[5], "=")); err != nil || len(p.hash) < 4 {
		return p, false
	}
	return p, true
}
