// The CSRF header and token the page's requests send, as window.drf:
// the page gives them in the JSON of #drf_csrf (DRF 3.18's page), or has
// set window.drf itself in an inline script (DRF 3.14's).
(function () {
  "use strict";
  if (!window.drf) {
    var config = document.getElementById("drf_csrf");
    window.drf = config ? JSON.parse(config.textContent) : {};
  }
}());
