package sample

import (
	"fmt"
	"time"

	"github.com/go-drf/drf/contrib/simplejwt"
	"github.com/go-drf/drf/framework"
)

// jwtSettings are the reference's SIMPLE_JWT: HS256 signed with the
// SECRET_KEY, access tokens for 5 minutes, refresh tokens for a day,
// rotated, and blacklisted once rotated.
var jwtSettings = simplejwt.Settings{
	AccessTokenLifetime:    5 * time.Minute,
	RefreshTokenLifetime:   24 * time.Hour,
	RotateRefreshTokens:    true,
	BlacklistAfterRotation: true,
	TokenBlacklist:         true,
	Algorithm:              "HS256",
}

// ecoJWTRoutes mounts /eco/jwt/: djangorestframework-simplejwt's obtain,
// refresh, verify and blacklist views, and a view that answers the
// caller's name to Bearer access tokens only.
func (a *app) ecoJWTRoutes(api *framework.API) {
	s := jwtSettings
	s.Compatibility = a.compat // simplejwt 5.5 by default, 5.2 at DRF 3.14
	j, err := simplejwt.New(a.users.DB, a.users, a.sessions.SecretKey, s)
	if err != nil {
		panic(fmt.Sprintf("sample: /eco/jwt/: %v", err))
	}
	api.Handle("/eco/jwt/token/", j.ObtainPairView())
	api.Handle("/eco/jwt/token/refresh/", j.RefreshView())
	api.Handle("/eco/jwt/token/verify/", j.VerifyView())
	api.Handle("/eco/jwt/token/blacklist/", j.BlacklistView())
	api.Handle("/eco/jwt/whoami/", a.onlyUsers("Jwt Who Am I", framework.IsAuthenticated{}, simplejwt.JWTAuthentication{JWT: j}))
}
