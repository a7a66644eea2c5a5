// The week of opening hours: "Copy Monday to weekdays", and each day's "Closed" kept current
// while the owner types. The page works without this script (the button stays hidden); it
// only fills in boxes the owner then saves as usual.
(function () {
  "use strict";

  var WEEKDAYS = ["tuesday", "wednesday", "thursday", "friday"];

  var form = document.getElementById("week-hours");
  if (!form) {
    return;
  }
  var copyButton = document.getElementById("copy-monday");
  var announce = document.getElementById("week-hours-announce");

  function boxesOf(day) {
    return form.querySelectorAll('input[data-day="' + day + '"]');
  }

  function showClosed(day) {
    var status = form.querySelector('[data-status-for="' + day + '"]');
    if (!status) {
      return;
    }
    var open = Array.prototype.some.call(boxesOf(day), function (box) {
      return box.value.trim() !== "";
    });
    status.hidden = open;
  }

  function copyMonday() {
    var monday = boxesOf("monday");
    WEEKDAYS.forEach(function (day) {
      var boxes = boxesOf(day);
      // Every day has the same boxes, in the same order (range by range, opens then closes).
      for (var i = 0; i < boxes.length && i < monday.length; i += 1) {
        boxes[i].value = monday[i].value;
      }
      showClosed(day);
    });
    if (announce) {
      announce.textContent = "Monday's hours copied to Tuesday to Friday. Save the week to keep them.";
    }
  }

  form.addEventListener("input", function (event) {
    var day = event.target.getAttribute("data-day");
    if (day) {
      showClosed(day);
    }
  });

  if (copyButton) {
    copyButton.hidden = false;
    copyButton.addEventListener("click", copyMonday);
  }
})();
