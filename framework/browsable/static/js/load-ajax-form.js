// Sends the page's forms with fetch (ajax-form.js).
window.drf.ajaxForms();
