package request

import "slices"

// Versioner determines the API version of a request (a versioning
// scheme, DRF's versioning_class): framework/versioning has DRF's. It
// returns "" for none, or an error in DRF's wording when the version is
// not allowed. Schemes built on the URL also implement the reverse
// package's hook so that reversed URLs carry the version.
type Versioner interface {
	DetermineVersion(r *Request, c VersionConfig) (string, error)
}

// VersionConfig is the resolved DEFAULT_VERSION, ALLOWED_VERSIONS and
// VERSION_PARAM of a view.
type VersionConfig struct {
	// Default is the version of requests that carry none; "" is None.
	Default string
	// Allowed lists the allowed versions, Default included.
	Allowed []string
	// Param is the name of the version parameter.
	Param string

	restricted bool
}

// IsAllowed reports whether version may be used: any when ALLOWED_VERSIONS
// is unset, else the allowed ones, Default included.
func (c VersionConfig) IsAllowed(version string) bool {
	if !c.restricted {
		return true
	}
	return slices.Contains(c.Allowed, version)
}

// Restrict sets the allowed versions (for schemes and tests built outside
// a view); none leaves every version allowed, as an empty ALLOWED_VERSIONS does.
func (c VersionConfig) Restrict(versions ...string) VersionConfig {
	if len(versions) == 0 {
		return c
	}
	c.Allowed = append([]string{}, versions...)
	if c.Default != "" {
		c.Allowed = append(c.Allowed, c.Default)
	}
	c.restricted = true
	return c
}
