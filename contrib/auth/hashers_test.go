package auth_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework/compat"
)

// Hashes written by Debian's Django 3.2 (make_password or the hasher's
// encode with low costs, and argon2-cffi for the Argon2 parameters Django
// no longer writes), with Django's must_update for each under its default
// parameters; the scrypt hash is from Django 4.0's own tests (parallelism
// 1, before 4.2's 5). Low costs keep the race detector's run short.
var djangoHashes = []struct {
	password, encoded string
	mustUpdate        bool
}{
	{"lètmein", "pbkdf2_sha256$1000$seasaltseasaltseasalt1$ByDLwFcLXi3YhFaA3hudyGCwiYh1Sik4FL98D2Zc20Y=", true},
	{"lètmein", "pbkdf2_sha256$1000$seasalt8$OJI/cPpuIWNE6+TEaT4/nyrOPTKMb2fJEZXSv4kurK0=", true},
	{"", "pbkdf2_sha256$1000$seasaltseasaltseasalt1$ENdVaf4eE4nC0q72pau3Pm+al2ddr+e5A4AOqzEvLgw=", true},
	{"lètmein", "pbkdf2_sha1$1000$seasaltseasaltseasalt1$yT/H49wWGgd4CFZw6J/qiyXyeAQ=", true},
	{"lètmein", "pbkdf2_sha1$1000$seasalt8$xHG1+BwpJ0gUeT5GY+LITRz00Nc=", true},
	{"", "pbkdf2_sha1$1000$seasaltseasaltseasalt1$jJqePuERJay7KmxiqAmycdnDg2c=", true},
	{"lètmein", "argon2$argon2id$v=19$m=102400,t=2,p=8$c2Vhc2FsdHNlYXNhbHRzZWFzYWx0MQ$V4qMRPLz2R2/pJBqUjiV/Q", false},
	{"letmein", "argon2$argon2i$v=19$m=512,t=1,p=2$c2Vhc2FsdHNlYXNhbHQ$k/sVC1ThSUCcDdDlNQSAvg", true},
	{"letmein", "argon2$argon2id$v=19$m=512,t=1,p=2$c2Vhc2FsdHNlYXNhbHQ$zq1/csvNegj0Ip27bOvujg", true},
	{"letmein", "argon2$argon2id$v=19$m=512,t=1,p=2$c2Vhc2FsdHNlYXNhbHQ$f6UGVxnRRK++wU6jrswMW2wbfJ2MOzlVtS5ETu/QSTM", true},
	{"lètmein", "bcrypt_sha256$$2b$04$bFK6JXHm0XJ2EqBKoJUVYe9uV5ipFzMuQnbj.OVGNktofdblO8M2W", true},
	{"lètmein", "bcrypt$$2b$04$N8MVIxVfUahaZoTSNdNQjeD4bLPnKTPzJTZ9gxpKEsvli2rfo4PNK", true},
	{strings.Repeat("x", 80), "bcrypt$$2b$04$.R5rcE7nLAzU6YPoI5FM/e9q4wNrcL.ucHhfkbz8CPUGvuTph.bWe", true},
	{"lètmein", "scrypt$16384$seasalt$8$1$Qj3+9PPyRjSJIebHnG81TMjsqtaIGxNQG/aEB/NYafTJ7tibgfYz71m0ldQESkXFRkdVCBhhY8mx7rQwite/Pw==", true},
}

// Hashes Django 3.2 writes with its default parameters: none must update.
var djangoCurrent = []string{
	"pbkdf2_sha256$260000$seasaltseasaltseasalt1$1OT8Z1+BzGME7/Wzcs8sNDrZc09NcGj1+nJkkbJd9TQ=",
	"pbkdf2_sha1$260000$seasaltseasaltseasalt1$ZhXHt8ksTlBBRO8kxXRwnNv+aFo=",
	"argon2$argon2id$v=19$m=102400,t=2,p=8$c2Vhc2FsdHNlYXNhbHRzZWFzYWx0MQ$V4qMRPLz2R2/pJBqUjiV/Q",
	"bcrypt_sha256$$2b$12$PvkfnjYzKVRsWi4RJoTbDueS4Pfu6Iwh90aQDAzAPBm3Tf8SkYVNm",
	"bcrypt$$2b$12$FZfkTMv2MHgR.YfloLs99e75xUcBvcG2hFJpiSJeGyrebPrveTMCW",
}

// Django's must_update is true for these, hashed with its defaults but a
// short salt.
var djangoShortSalts = []string{
	"pbkdf2_sha256$260000$seasalt8$CqeTZ8whgfvwHfP7NtYyDSv50JalSpGn3m5n/57pjTM=",
	"pbkdf2_sha1$260000$seasalt8$8bW+vQ2nQsAYRbsE/uPjez6YDMY=",
	"argon2$argon2id$v=19$m=102400,t=2,p=8$c2Vhc2FsdDg$fQTov1JEoSon7D/lNnoEAQ",
}

// hasherOf returns the hasher of AllHashers for encoded's algorithm.
func hasherOf(t *testing.T, encoded string) auth.Hasher {
	t.Helper()
	algorithm, _, _ := strings.Cut(encoded, "$")
	for _, h := range auth.AllHashers {
		if h.Algorithm() == algorithm {
			return h
		}
	}
	t.Fatalf("no hasher for %q", encoded)
	return nil
}

func TestDjangosHashesVerify(t *testing.T) {
	t.Parallel()
	for _, c := range djangoHashes {
		h := hasherOf(t, c.encoded)
		if !h.Verify(c.password, c.encoded) {
			t.Errorf("%s: Verify(%q, Django's hash %s) = false", h.Algorithm(), c.password, c.encoded)
		}
		if wrong := "y" + c.password; h.Verify(wrong, c.encoded) {
			t.Errorf("%s: Verify(%q, hash of %q) = true", h.Algorithm(), wrong, c.password)
		}
		if got := h.MustUpdate(c.encoded); got != c.mustUpdate {
			t.Errorf("%s: MustUpdate(%s) = %v, Django says %v", h.Algorithm(), c.encoded, got, c.mustUpdate)
		}
	}
}

// bcrypt counts the first 72 bytes, as Python's bcrypt; bcrypt_sha256
// counts them all.
func TestBCryptLongPasswords(t *testing.T) {
	t.Parallel()
	long := "bcrypt$$2b$04$.R5rcE7nLAzU6YPoI5FM/e9q4wNrcL.ucHhfkbz8CPUGvuTph.bWe" // Django's hash of 80 x's
	if !(auth.BCryptHasher{}).Verify(strings.Repeat("x", 72)+"anything", long) {
		t.Error("bcrypt: the bytes after the 72nd counted")
	}
	sha := auth.BCryptSHA256Hasher{Rounds: 4}
	encoded, err := sha.Encode(strings.Repeat("x", 80))
	if err != nil {
		t.Fatal(err)
	}
	if sha.Verify(strings.Repeat("x", 72)+"y", encoded) {
		t.Error("bcrypt_sha256: the bytes after the 72nd did not count")
	}
	plain := auth.BCryptHasher{Rounds: 4}
	if _, err := plain.Encode("a\x00b"); err == nil {
		t.Error("bcrypt hashed a password with a NUL byte, which Python's bcrypt refuses")
	}
	nul, err := sha.Encode("a\x00b")
	if err != nil || !sha.Verify("a\x00b", nul) || sha.Verify("a", nul) {
		t.Errorf("bcrypt_sha256 with a NUL byte: %q, %v", nul, err)
	}
}

// cheap are the hashers with the lowest costs, for fast tests.
var cheap = []struct {
	hasher auth.Hasher
	format string
}{
	{auth.PBKDF2Hasher{Iterations: 1000}, `^pbkdf2_sha256\$1000\$[a-zA-Z0-9]{22}\$[A-Za-z0-9+/]{43}=$`},
	{auth.PBKDF2SHA1Hasher{Iterations: 1000}, `^pbkdf2_sha1\$1000\$[a-zA-Z0-9]{22}\$[A-Za-z0-9+/]{27}=$`},
	{auth.Argon2Hasher{TimeCost: 1, MemoryCost: 64, Parallelism: 1}, `^argon2\$argon2id\$v=19\$m=64,t=1,p=1\$[A-Za-z0-9+/]{30}\$[A-Za-z0-9+/]{22}$`},
	{auth.BCryptSHA256Hasher{Rounds: 4}, `^bcrypt_sha256\$\$2b\$04\$[./A-Za-z0-9]{53}$`},
	{auth.BCryptHasher{Rounds: 4}, `^bcrypt\$\$2b\$04\$[./A-Za-z0-9]{53}$`},
	{auth.ScryptHasher{WorkFactor: 16, BlockSize: 1, Parallelism: 1}, `^scrypt\$16\$[a-zA-Z0-9]{22}\$1\$1\$[A-Za-z0-9+/]{86}==$`},
}

func TestEncodeWritesDjangosFormat(t *testing.T) {
	t.Parallel()
	for _, c := range cheap {
		format := regexp.MustCompile(c.format)
		a, err := c.hasher.Encode("lètmein")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := c.hasher.Encode("lètmein")
		if !format.MatchString(a) || !format.MatchString(b) {
			t.Errorf("%s: Encode = %q, not Django's format %s", c.hasher.Algorithm(), a, c.format)
		}
		if a == b {
			t.Errorf("%s: two hashes of one password are equal (no salt?)", c.hasher.Algorithm())
		}
		if !c.hasher.Verify("lètmein", a) || c.hasher.Verify("letmein", a) || c.hasher.MustUpdate(a) {
			t.Errorf("%s: %q does not verify as lètmein only, or must update", c.hasher.Algorithm(), a)
		}
	}
}

func TestDefaultsAreDjangos(t *testing.T) {
	t.Parallel()
	var names []string
	for _, h := range auth.DefaultHashers {
		names = append(names, h.Algorithm())
	}
	if got := strings.Join(names, ","); got != "pbkdf2_sha256,pbkdf2_sha1,argon2,bcrypt_sha256,scrypt" {
		t.Errorf("DefaultHashers = %s, not Django 5.2's PASSWORD_HASHERS", got)
	}
	names = names[:0]
	for _, h := range auth.HashersFor(compat.DRF314) {
		names = append(names, h.Algorithm())
	}
	if got := strings.Join(names, ","); got != "pbkdf2_sha256,pbkdf2_sha1,argon2,bcrypt_sha256" {
		t.Errorf("Django32Hashers = %s, not Django 3.2's PASSWORD_HASHERS", got)
	}
	// Django 3.2's parameters: a current hash with them needs no update
	// there; Django 5.2 rehashes its PBKDF2 ones (1,000,000 iterations).
	for _, encoded := range djangoCurrent {
		old := hasherOf(t, encoded)
		for _, h := range auth.Django32Hashers {
			if strings.HasPrefix(encoded, h.Algorithm()+"$") {
				old = h
			}
		}
		if old.MustUpdate(encoded) {
			t.Errorf("%s has Django 3.2's parameters but must update", encoded)
		}
		if pbkdf2 := strings.HasPrefix(encoded, "pbkdf2"); hasherOf(t, encoded).MustUpdate(encoded) != pbkdf2 {
			t.Errorf("%s: MustUpdate under Django 5.2's parameters is %v", encoded, !pbkdf2)
		}
	}
	for _, encoded := range djangoShortSalts {
		if !hasherOf(t, encoded).MustUpdate(encoded) {
			t.Errorf("%s has a short salt but need not update", encoded)
		}
	}
	// Django 4.2's scrypt: N=16384, r=8, p=5.
	scrypt := "scrypt$16384$seasaltseasaltseasalt1$8$%d$Qj3+9PPyRjSJIebHnG81TMjsqtaIGxNQG/aEB/NYafTJ7tibgfYz71m0ldQESkXFRkdVCBhhY8mx7rQwite/Pw=="
	if (auth.ScryptHasher{}).MustUpdate(fmt.Sprintf(scrypt, 5)) || !(auth.ScryptHasher{}).MustUpdate(fmt.Sprintf(scrypt, 1)) {
		t.Error("the default scrypt parameters are not Django 4.2's")
	}
}

func TestMalformedHashesNeverVerify(t *testing.T) {
	t.Parallel()
	good := djangoHashes[0].encoded // pbkdf2_sha256$1000$...
	hs := auth.Hashers{auth.PBKDF2Hasher{Iterations: 1000}, auth.ScryptHasher{}, auth.BCryptHasher{}, auth.Argon2Hasher{}}
	for _, encoded := range []string{
		"",
		"!l890Qk2vE28Ab6mabJtUJoD6IX4jmJVUhvbNUvbQ", // Django's make_password(None)
		"!" + good,
		strings.Replace(good, "pbkdf2_sha256", "pbkdf2_sha1", 1), // not in hs
		"md5$salt$0123456789abcdef0123456789abcdef",
		"pbkdf2_sha256$260000$seasaltseasaltseasalt1",
		"pbkdf2_sha256$0$e4zsPGgaT6NMnrRaMfCInq$x",
		"pbkdf2_sha256$-5$e4zsPGgaT6NMnrRaMfCInq$x",
		"pbkdf2_sha256$abc$e4zsPGgaT6NMnrRaMfCInq$x",
		strings.TrimSuffix(good, "="),
		"lètmein",
		"scrypt$16384$seasalt$8$1",
		"scrypt$15$seasalt$8$1$Qj3+9PPyRjSJIebHnG81TMjsqtaIGxNQG/aEB/NYafTJ7tibgfYz71m0ldQESkXFRkdVCBhhY8mx7rQwite/Pw==",
		"scrypt$1048576$seasalt$8$1$Qj3+9PPyRjSJIebHnG81TMjsqtaIGxNQG/aEB/NYafTJ7tibgfYz71m0ldQESkXFRkdVCBhhY8mx7rQwite/Pw==", // over 32 MiB
		"bcrypt$$2b$99$FZfkTMv2MHgR.YfloLs99e75xUcBvcG2hFJpiSJeGyrebPrveTMCW",
		"bcrypt$2b$12$FZfkTMv2MHgR.YfloLs99e75xUcBvcG2hFJpiSJeGyrebPrveTMCW",
		"argon2$argon2d$v=19$m=512,t=1,p=2$c2Vhc2FsdHNlYXNhbHQ$zq1/csvNegj0Ip27bOvujg",
		"argon2$argon2id$v=16$m=512,t=1,p=2$c2Vhc2FsdHNlYXNhbHQ$zq1/csvNegj0Ip27bOvujg",
		"argon2$argon2id$m=512,t=1,p=2$c2Vhc2FsdHNlYXNhbHQ$zq1/csvNegj0Ip27bOvujg",
		"argon2$argon2id$v=19$m=512,t=0,p=2$c2Vhc2FsdHNlYXNhbHQ$zq1/csvNegj0Ip27bOvujg",
		"argon2$argon2id$v=19$m=512,t=1,p=2,x=1$c2Vhc2FsdHNlYXNhbHQ$zq1/csvNegj0Ip27bOvujg",
		"argon2$argon2id$v=19$m=512,t=1,p=2$c2Vhc2FsdHNlYXNhbHQ$zq1/csvNegj0Ip27bOvujg$",
		"argon2$argon2id$v=19$m=512,t=1,p=2$!!!$zq1/csvNegj0Ip27bOvujg",
	} {
		for _, password := range []string{"lètmein", "letmein", ""} {
			if ok, update := hs.Check(password, encoded); ok || update {
				t.Errorf("Check(%q, %q) = %v, %v", password, encoded, ok, update)
			}
		}
	}
}

func TestCheckUpgradesToTheFirstHasher(t *testing.T) {
	t.Parallel()
	first := auth.PBKDF2Hasher{Iterations: 1000}
	hs := auth.Hashers{first, auth.Argon2Hasher{}, auth.PBKDF2SHA1Hasher{}}
	current, _ := first.Encode("pw")
	fewer, _ := auth.PBKDF2Hasher{Iterations: 999}.Encode("pw")
	sha1, _ := auth.PBKDF2SHA1Hasher{Iterations: 1000}.Encode("pw")
	argon, _ := auth.Argon2Hasher{TimeCost: 1, MemoryCost: 64, Parallelism: 1}.Encode("pw")
	for _, c := range []struct {
		encoded, password string
		ok, update        bool
	}{
		{current, "pw", true, false},
		{current, "wrong", false, false},
		{fewer, "pw", true, true},
		{fewer, "wrong", false, false},
		{sha1, "pw", true, true},
		{argon, "pw", true, true},
		{argon, "wrong", false, false},
	} {
		if ok, update := hs.Check(c.password, c.encoded); ok != c.ok || update != c.update {
			t.Errorf("Check(%q, %s) = %v, %v; want %v, %v", c.password, c.encoded, ok, update, c.ok, c.update)
		}
	}
	// Nil is DefaultHashers: PBKDF2-SHA256 first, Django 5.2's work.
	if encoded, err := auth.Hashers(nil).Make("pw"); err != nil || !strings.HasPrefix(encoded, "pbkdf2_sha256$1000000$") {
		t.Errorf("nil Hashers: Make = %q, %v", encoded, err)
	}
}

// workHasher is PBKDF2 that counts the iterations it runs.
type workHasher struct {
	auth.PBKDF2Hasher
	work *atomic.Int64
}

func iterationsOf(encoded string) int64 {
	parts := strings.Split(encoded, "$")
	if len(parts) < 2 {
		return 0
	}
	n, _ := strconv.ParseInt(parts[1], 10, 64)
	return n
}

func (h workHasher) Encode(password string) (string, error) {
	h.work.Add(int64(h.Iterations))
	return h.PBKDF2Hasher.Encode(password)
}

func (h workHasher) Verify(password, encoded string) bool {
	h.work.Add(iterationsOf(encoded))
	return h.PBKDF2Hasher.Verify(password, encoded)
}

func (h workHasher) HardenRuntime(password, encoded string) {
	if extra := int64(h.Iterations) - iterationsOf(encoded); extra > 0 {
		h.work.Add(extra)
	}
	h.PBKDF2Hasher.HardenRuntime(password, encoded)
}

// Every failed check costs the first hasher's work factor: wrong
// passwords, cheaper hashes, unusable and unknown hashes (CVE-2024-39329).
func TestFailedChecksCostOneHash(t *testing.T) {
	t.Parallel()
	var work atomic.Int64
	first := workHasher{auth.PBKDF2Hasher{Iterations: 1000}, &work}
	hs := auth.Hashers{first, auth.PBKDF2SHA1Hasher{Iterations: 1000}}
	current, _ := auth.PBKDF2Hasher{Iterations: 1000}.Encode("pw")
	cheaper, _ := auth.PBKDF2Hasher{Iterations: 10}.Encode("pw")
	for _, encoded := range []string{
		current, cheaper,
		"!l890Qk2vE28Ab6mabJtUJoD6IX4jmJVUhvbNUvbQ",
		"", "unknown$1$2$3", "argon2$argon2id$v=19$m=512,t=1,p=2$c2Vhc2FsdHNlYXNhbHQ$zq1/csvNegj0Ip27bOvujg",
	} {
		work.Store(0)
		if ok, _ := hs.Check("wrong", encoded); ok {
			t.Fatalf("Check(wrong, %q) = true", encoded)
		}
		if got := work.Load(); got != 1000 {
			t.Errorf("Check(wrong, %q) ran %d iterations, want 1000", encoded, got)
		}
	}
}

// At DRF 3.14 level the named PBKDF2 hashers take Django 3.2's iterations.
func TestHashersNamedFor(t *testing.T) {
	t.Parallel()
	for level, want := range map[compat.Level]string{compat.Current: "pbkdf2_sha256$1000000$", compat.DRF314: "pbkdf2_sha256$260000$"} {
		hs, err := auth.HashersNamedFor(level, "pbkdf2_sha256", "argon2")
		if err != nil {
			t.Fatal(err)
		}
		if encoded, err := hs.Make("pw"); err != nil || !strings.HasPrefix(encoded, want) {
			t.Errorf("%s: Make = %q, %v; want %s…", level, encoded, err, want)
		}
	}
}

func TestHashersNamedInOrder(t *testing.T) {
	t.Parallel()
	hs, err := auth.HashersNamedFor(compat.Current, "argon2", "scrypt", "pbkdf2_sha256")
	if err != nil || len(hs) != 3 || hs[0] != (auth.Argon2Hasher{}) || hs[1] != (auth.ScryptHasher{}) || hs[2] != (auth.PBKDF2Hasher{}) {
		t.Errorf("HashersNamedFor = %v, %v", hs, err)
	}
	if _, err := auth.HashersNamedFor(compat.Current, "pbkdf2_sha256", "md5"); err == nil || !strings.Contains(err.Error(), `"md5"`) {
		t.Errorf("an unknown name: %v", err)
	}
}
