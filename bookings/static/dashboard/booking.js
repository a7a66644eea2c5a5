// Booking by hand: the client search asks only for the clients of the business chosen in the
// form (the server narrows to the businesses the user may book at in any case), and choosing
// another business clears a client who belongs to the previous one.
(function () {
  "use strict";

  var $ = window.django && window.django.jQuery;
  if (!$) {
    return;
  }

  function businessField() {
    return document.getElementById("id_business");
  }

  // select2 asks the admin's autocomplete view with term, page and the field it serves; the
  // business is added to the client field's requests alone.
  $.ajaxPrefilter(function (options) {
    var business = businessField();
    var asks = typeof options.data === "string" ? options.data : "";
    var forClient =
      asks.indexOf("model_name=appointment") !== -1 &&
      asks.indexOf("field_name=client") !== -1;
    if (forClient && business && business.value) {
      options.data = asks + "&business=" + encodeURIComponent(business.value);
    }
  });

  // select2 names its combobox, and the read-only text box inside it showing the choice, by
  // the chosen client alone, so while none is chosen they have no name at all: both are
  // named by the field's label first.
  function nameComboboxes() {
    $("select.admin-autocomplete").each(function () {
      var label = document.querySelector('label[for="' + this.id + '"]');
      var combobox = $(this).next(".select2").find(".select2-selection")[0];
      var shown = document.getElementById("select2-" + this.id + "-container");
      if (!label || !combobox || !shown) {
        return;
      }
      if (!label.id) {
        label.id = this.id + "-label";
      }
      combobox.setAttribute("aria-labelledby", label.id + " " + shown.id);
      shown.setAttribute("aria-labelledby", label.id + " " + shown.id);
    });
  }

  // Runs after the admin's autocomplete.js (loaded before this file) made the comboboxes.
  $(function () {
    nameComboboxes();
    var business = businessField();
    var client = $("#id_client");
    if (!business || !client.length) {
      return;
    }
    business.addEventListener("change", function () {
      if (client.val()) {
        client.val(null).trigger("change");
      }
    });
  });
})();
