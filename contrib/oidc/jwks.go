package oidc

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"time"
)

// KeySet is an issuer's JSON Web Key Set (RFC 7517), fetched over HTTP
// from URL on first use and cached: it is fetched again when it is older
// than MaxAge, and when a token names a key (kid) it does not hold, at
// most once per RefetchInterval, so that the issuer's key rotation is
// followed without letting tokens with made-up kids make a request each.
// Fetches run in the background, one at a time (single flight), each
// bounded by FetchTimeout: a request whose key is cached never waits for
// one (an old set keeps verifying while it is fetched again), and a
// request whose key is not cached waits for the fetch at most MaxWait.
// RSA, EC (P-256, P-384, P-521) and Ed25519 signing keys are read; others,
// and keys whose "use" is not "sig", are skipped. It is safe for
// concurrent use; set its fields before the first. Close stops a fetch in
// flight.
type KeySet struct {
	// URL is the issuer's jwks_uri (Discover finds it).
	URL string
	// Client fetches the set; nil is a client with a 10 s timeout.
	Client *http.Client
	// MaxAge is how long a fetched set is used before it is fetched
	// again (in the background, the old set verifying meanwhile); 0 is
	// one hour.
	MaxAge time.Duration
	// RefetchInterval is the least time between the starts of two
	// fetches (an unknown kid's, an old set's, or the retry of a failed
	// one); 0 is one minute.
	RefetchInterval time.Duration
	// MaxWait is the longest a request whose key is not cached (an
	// unknown kid, or no set fetched yet) waits for the fetch in flight;
	// the request is then answered as when the issuer is unavailable
	// (503) while the fetch goes on. 0 is 2 seconds.
	MaxWait time.Duration
	// FetchTimeout bounds one fetch, whatever Client's timeout; 0 is
	// 10 s.
	FetchTimeout time.Duration

	mu       sync.Mutex
	keys     map[string]jwk
	fetched  time.Time     // when the set in keys was fetched
	tried    time.Time     // when the last fetch started
	err      error         // the last finished fetch's error, nil when it succeeded
	inflight chan struct{} // closed when the fetch in flight ends; nil when none is
	stop     context.CancelFunc
	base     context.Context // the fetches' parent, cancelled by Close
	closed   bool
	wg       sync.WaitGroup // the fetch in flight
}

// defaultMaxWait is how long a request whose key is not cached waits for
// the key set's fetch when KeySet.MaxWait is 0.
const defaultMaxWait = 2 * time.Second

// jwk is one usable key of the set.
type jwk struct {
	alg string // the key's "alg", "" when it has none
	key crypto.PublicKey
}

// ErrUnknownKey is the error of a token whose key the set does not hold.
var ErrUnknownKey = errors.New("oidc: the token's key is not in the issuer's key set")

// ErrFetch wraps the failures to fetch or read the key set.
var ErrFetch = errors.New("oidc: the issuer's key set could not be fetched")

var defaultClient = &http.Client{Timeout: 10 * time.Second}

// Key returns the public key kid names ("" names the set's only key), and
// the algorithm the key is for ("" when the set does not say). A cached
// key is returned at once; when the set is older than MaxAge, a fetch is
// started in the background. A kid the set does not hold (or no set yet)
// starts a fetch, at most once per RefetchInterval, or joins the one in
// flight, and waits for it at most MaxWait (and no longer than ctx): the
// error then wraps ErrFetch, as it does when the fetch failed and the key
// is not known from an earlier one. A kid still unknown after a
// successful fetch, or while no fetch may start, is ErrUnknownKey.
func (k *KeySet) Key(ctx context.Context, kid string) (crypto.PublicKey, string, error) {
	k.mu.Lock()
	now := time.Now()
	canFetch := k.tried.IsZero() || now.Sub(k.tried) >= orDefault(k.RefetchInterval, time.Minute)
	if key, ok := k.lookup(kid); ok {
		if canFetch && now.Sub(k.fetched) >= orDefault(k.MaxAge, time.Hour) {
			k.start(now)
		}
		k.mu.Unlock()
		return key.key, key.alg, nil
	}
	done := k.inflight
	if done == nil && canFetch {
		done = k.start(now)
	}
	if done == nil {
		defer k.mu.Unlock()
		return nil, "", k.missing()
	}
	k.mu.Unlock()

	wait := time.NewTimer(orDefault(k.MaxWait, defaultMaxWait))
	defer wait.Stop()
	select {
	case <-done:
	case <-wait.C:
	case <-ctx.Done():
	}
	select {
	case <-done: // ended, maybe just as the wait did: its answer holds
	default:
		return nil, "", errPending
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if key, ok := k.lookup(kid); ok {
		return key.key, key.alg, nil
	}
	return nil, "", k.missing()
}

// errPending is a key that is not cached while the set's fetch is still
// in flight: the request waited MaxWait (or went away).
var errPending = fmt.Errorf("%w: the key set is still being fetched", ErrFetch)

// missing is the error of a kid the set does not hold, k.mu held: the
// last fetch's error, or ErrUnknownKey.
func (k *KeySet) missing() error {
	switch {
	case k.err != nil:
		return k.err
	case k.keys == nil:
		return fmt.Errorf("%w: the key set was never fetched", ErrFetch)
	}
	return ErrUnknownKey
}

// Close stops the fetch in flight, if any, waits for it to end, and makes
// the set fetch no more: it then serves the keys it holds. Calling it is
// optional (a fetch ends by itself within FetchTimeout); it suits a
// service's shutdown and tests. It always returns nil.
func (k *KeySet) Close() error {
	k.mu.Lock()
	k.closed = true
	if k.stop != nil {
		k.stop()
	}
	k.mu.Unlock()
	k.wg.Wait()
	return nil
}

// start starts a fetch in the background, k.mu held, and returns the
// channel closed when it ends; nil when the set is closed.
func (k *KeySet) start(now time.Time) chan struct{} {
	if k.closed {
		return nil
	}
	if k.inflight != nil {
		return k.inflight
	}
	if k.base == nil {
		k.base, k.stop = context.WithCancel(context.Background())
	}
	k.tried = now
	done := make(chan struct{})
	k.inflight = done
	k.wg.Add(1)
	go k.fetch(done)
	return done
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// lookup finds kid in the set; "" finds the only key of a one-key set.
func (k *KeySet) lookup(kid string) (jwk, bool) {
	if kid == "" && len(k.keys) == 1 {
		for _, key := range k.keys {
			return key, true
		}
	}
	key, ok := k.keys[kid]
	return key, ok
}

// maxSetBytes bounds the size of a key set read.
const maxSetBytes = 1 << 20

// fetch gets the set and, when it reads, replaces the cached keys; k.err
// is the attempt's error. It closes done when it ends.
func (k *KeySet) fetch(done chan struct{}) {
	defer k.wg.Done()
	ctx, cancel := context.WithTimeout(k.base, orDefault(k.FetchTimeout, 10*time.Second))
	defer cancel()
	keys, err := fetchSet(ctx, k.Client, k.URL)
	k.mu.Lock()
	defer k.mu.Unlock()
	k.err = err
	if err == nil {
		k.keys, k.fetched = keys, time.Now()
	}
	k.inflight = nil
	close(done)
}

// fetchSet gets and reads the set at url.
func fetchSet(ctx context.Context, client *http.Client, url string) (map[string]jwk, error) {
	if client == nil {
		client = defaultClient
	}
	body, err := get(ctx, client, url)
	if err != nil {
		return nil, err
	}
	var set struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(body, &set); err != nil || set.Keys == nil {
		return nil, fmt.Errorf("%w: %s is not a JSON Web Key Set", ErrFetch, url)
	}
	keys := map[string]jwk{}
	for _, raw := range set.Keys {
		var kid string
		key, err := parseJWK(raw, &kid)
		if err != nil {
			continue // a key of another kind or use, or unreadable
		}
		keys[kid] = key
	}
	return keys, nil
}

// get fetches url's body (200 only, at most maxSetBytes).
func get(ctx context.Context, client *http.Client, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFetch, err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFetch, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%w: GET %s: %s", ErrFetch, url, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxSetBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%w: GET %s: %v", ErrFetch, url, err)
	}
	if len(body) > maxSetBytes {
		return nil, fmt.Errorf("%w: GET %s: more than %d bytes", ErrFetch, url, maxSetBytes)
	}
	return body, nil
}

// jwkFields are the members of a JWK this package reads.
type jwkFields struct {
	Kty string `json:"kty"`
	Kid string `json:"kid"`
	Use string `json:"use"`
	Alg string `json:"alg"`
	N   string `json:"n"`
	E   string `json:"e"`
	Crv string `json:"crv"`
	X   string `json:"x"`
	Y   string `json:"y"`
}

var curves = map[string]elliptic.Curve{"P-256": elliptic.P256(), "P-384": elliptic.P384(), "P-521": elliptic.P521()}

// parseJWK reads one signing key and its kid.
func parseJWK(raw json.RawMessage, kid *string) (jwk, error) {
	var f jwkFields
	if err := json.Unmarshal(raw, &f); err != nil {
		return jwk{}, err
	}
	if f.Use != "" && f.Use != "sig" {
		return jwk{}, errors.New("not a signing key")
	}
	*kid = f.Kid
	b64 := base64.RawURLEncoding
	switch f.Kty {
	case "RSA":
		n, err1 := b64.DecodeString(f.N)
		e, err2 := b64.DecodeString(f.E)
		if err1 != nil || err2 != nil || len(n) == 0 || len(e) == 0 || len(e) > 4 {
			return jwk{}, errors.New("bad RSA key")
		}
		exp := int(new(big.Int).SetBytes(e).Int64())
		if exp < 3 {
			return jwk{}, errors.New("bad RSA exponent")
		}
		return jwk{alg: f.Alg, key: &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: exp}}, nil
	case "EC":
		curve, ok := curves[f.Crv]
		if !ok {
			return jwk{}, errors.New("unknown curve")
		}
		x, err1 := b64.DecodeString(f.X)
		y, err2 := b64.DecodeString(f.Y)
		size := (curve.Params().BitSize + 7) / 8
		if err1 != nil || err2 != nil || len(x) != size || len(y) != size {
			return jwk{}, errors.New("bad EC key")
		}
		key, err := ecdsa.ParseUncompressedPublicKey(curve, append(append([]byte{4}, x...), y...))
		if err != nil {
			return jwk{}, err
		}
		return jwk{alg: f.Alg, key: key}, nil
	case "OKP":
		x, err := b64.DecodeString(f.X)
		if f.Crv != "Ed25519" || err != nil || len(x) != ed25519.PublicKeySize {
			return jwk{}, errors.New("bad OKP key")
		}
		return jwk{alg: f.Alg, key: ed25519.PublicKey(x)}, nil
	}
	return jwk{}, errors.New("unknown key type")
}

// Discover reads the issuer's OpenID Connect discovery document
// (ISSUER/.well-known/openid-configuration) and returns its jwks_uri. The
// document must name the same issuer.
func Discover(ctx context.Context, client *http.Client, issuer string) (string, error) {
	if client == nil {
		client = defaultClient
	}
	body, err := get(ctx, client, strings.TrimSuffix(issuer, "/")+"/.well-known/openid-configuration")
	if err != nil {
		return "", err
	}
	var doc struct {
		Issuer  string `json:"issuer"`
		JWKSURI string `json:"jwks_uri"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return "", fmt.Errorf("oidc: the discovery document of %s: %v", issuer, err)
	}
	if doc.Issuer != issuer || doc.JWKSURI == "" {
		return "", fmt.Errorf("oidc: the discovery document of %s names the issuer %q and the jwks_uri %q", issuer, doc.Issuer, doc.JWKSURI)
	}
	return doc.JWKSURI, nil
}
