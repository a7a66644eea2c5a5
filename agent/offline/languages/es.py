"""The Spanish reading table: how clients in Spain and Latin America write days, times, money and
answers. Patterns match the message with its accents folded ("mañana" as "manana", "sí" as "si"),
so a client who writes without accents is read alike; the question words that need their accent
to ask ("qué", "cuándo": "que" and "cuando" do not ask) are matched as written, and the
patterns the offline model matches on the message itself accept both spellings."""

import re
from datetime import time

from agent.offline.languages.table import NUMBER, ReadingTable

WEEKDAYS = {
    "lunes": 0, "martes": 1, "miercoles": 2, "jueves": 3, "viernes": 4, "sabado": 5,
    "domingo": 6,
}  # fmt: skip
MONTHS = (
    r"(?:enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre"
    r"|noviembre|diciembre|ene|feb|mar|abr|jun|jul|ago|sept?|oct|nov|dic)"
)
HOUR_WORDS = {
    "una": 1, "uno": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7,
    "ocho": 8, "nueve": 9, "diez": 10, "once": 11, "doce": 12,
}  # fmt: skip
MINUTE_WORDS = {
    "y media": 30, "y cuarto": 15, "y cinco": 5, "y diez": 10, "y veinte": 20,
    "y veinticinco": 25, "menos cuarto": -15, "menos cinco": -5, "menos diez": -10,
    "menos veinte": -20, "menos veinticinco": -25,
}  # fmt: skip
# After a clock, "por la tarde" says the half of the day as "de la tarde" does ("las 2:30 por la
# tarde" is 14:30).
DAY_HALVES = {
    "de la manana": "am", "de la madrugada": "am", "de la tarde": "pm", "de la noche": "pm",
    "del mediodia": "pm", "por la manana": "am", "por la tarde": "pm", "por la noche": "pm",
}  # fmt: skip
SHIFT = "|".join(word.replace(" ", r"\s+") for word in MINUTE_WORDS)
HALF = "|".join(word.replace(" ", r"\s+") for word in DAY_HALVES)
# What a number is not an amount when followed by: a time, people, a length.
NOT_MONEY_AFTER = (
    r"(?!\s*(?::|h\b|hs\b|de\s+la\b|y\s+media|personas?|horas?|min\w*|dias?|semanas?|de\b|\d))"
)
ORDINALS = {
    "primera": 0, "primero": 0, "primer": 0, "segunda": 1, "segundo": 1, "tercera": 2,
    "tercero": 2, "tercer": 2, "cuarta": 3, "quinta": 4, "quinto": 4, "sexta": 5, "sexto": 5,
    "última": -1, "ultima": -1, "último": -1, "ultimo": -1,
}  # fmt: skip

DAYPART_WORDS = {
    "manana": "morning", "tarde": "afternoon", "noche": "evening", "esta manana": "morning",
    "esta tarde": "afternoon", "esta noche": "tonight", "mediodia": "midday",
}  # fmt: skip

YES_PHRASES = frozenset({
    "si", "si por favor", "si gracias", "si claro", "si perfecto", "si vale", "vale",
    "vale gracias", "vale perfecto", "de acuerdo", "perfecto", "perfecto gracias", "claro",
    "claro que si", "genial", "ok", "okey", "okay", "bien", "muy bien", "estupendo", "me va bien",
    "me viene bien", "me parece bien", "correcto", "exacto", "eso es", "venga", "dale",
    "por supuesto", "sin problema", "adelante", "buenisimo", "sip", "sii", "siii", "perfe",
    "okis", "andale", "listo", "esta bien", "dale perfecto", "me lo quedo",
})  # fmt: skip

CONFIRM_PHRASES = frozenset({
    "confirmo", "confirmado", "confirmada", "lo confirmo", "la confirmo", "confirmalo",
    "confirmala", "confirma", "confirmar", "confirmamos", "reservalo", "reservala", "reservamelo",
    "reservamela", "si confirmo", "si lo confirmo", "vale confirmo",
})  # fmt: skip

NO_PHRASES = frozenset({
    "no", "no gracias", "no por favor", "nop", "para nada", "mejor no", "no no", "no puedo",
    "no me va bien", "no me viene bien", "ni hablar", "negativo", "la verdad es que no",
})  # fmt: skip

CANCEL_PHRASES = frozenset({
    "cancela", "cancelala", "cancelalo", "cancelar", "cancelarla", "cancelarlo", "anula",
    "anulala", "anulalo", "anular",
})  # fmt: skip

QUESTION_WORDS = frozenset({
    "qué", "cuándo", "dónde", "cuánto", "cuánta", "cuántos", "cuántas", "cómo", "cuál", "cuáles",
    "quién", "quiénes", "cuanto", "cuanta", "cuantos", "cuantas", "hay", "teneis", "tenéis",
    "tienen", "sabeis", "sabéis", "disponible", "disponibles", "disponibilidad", "libre", "libres",
    "hueco", "huecos", "precio", "precios", "cuesta", "cuestan", "costaria", "costaría", "tarifa",
    "tarifas", "abierto", "abiertos", "abris", "abrís", "abren", "horario", "horarios",
    "informacion", "información", "info", "aceptais", "aceptáis", "aceptan", "estais", "estáis",
    "o", "posible", "alguna", "algun", "algún", "alguno", "acaso",
})  # fmt: skip

QUESTION_OPENERS = frozenset({
    "puedo", "puedes", "puede", "podeis", "podemos", "podria", "podrias", "podriais", "podrian",
    "tienes", "tiene", "teneis", "tienen", "hay", "seria", "aceptais", "aceptan", "haceis",
    "hacen", "sabeis", "sabes", "sabe", "estais", "quedan", "queda", "abris", "abren", "cerrais",
    "cierran", "trabajais", "atendeis", "dejais", "cobrais", "incluye",
})  # fmt: skip

FILLER = frozenset({
    "a", "al", "las", "la", "el", "los", "lo", "por", "favor", "porfa", "porfavor", "xfa",
    "gracias", "muchas", "mil", "sobre", "hacia", "para", "de", "del", "en", "tipo", "antes",
    "despues", "desde", "hasta", "entonces", "pues", "mejor",
})  # fmt: skip

NAME_PARTICLES = frozenset({
    "de", "del", "la", "las", "los", "y", "e", "da", "do", "dos", "di", "van", "von", "san",
})  # fmt: skip

NOT_NAMES = frozenset({
    "hola", "buenas", "buenos", "dias", "tardes", "noches", "gracias", "por", "favor", "cita",
    "citas", "reserva", "reservar", "precio", "precios", "hoy", "manana", "semana", "finde", "fin",
    "proximo", "proxima", "este", "esta", "esto", "eso", "ese", "si", "no", "vale", "claro",
    "perfecto", "genial", "ok", "bien", "mal", "quiero", "queria", "quisiera", "necesito", "puedo",
    "puede", "tengo", "tienes", "teneis", "hay", "cuando", "donde", "como", "que", "cual", "quien",
    "cuanto", "informacion", "info", "ayuda", "horario", "horarios", "direccion", "parking",
    "aparcamiento", "servicio", "servicios", "cancelar", "anular", "cambiar", "mover",
    "devolucion", "reembolso", "deposito", "senal", "pago", "pagar", "tarjeta", "efectivo", "bono",
    "descuento", "ahora", "luego", "despues", "antes", "pronto", "tarde", "temprano", "urgente",
    "adios", "chao", "hasta", "el", "lo", "un", "una", "uno", "mi", "me", "te", "se", "tu", "yo",
    "nos", "a", "al", "en", "con", "sin", "para", "o", "pero", "mas", "muy", "tambien", "otro",
    "otra", "mismo", "igual", "nada", "todo", "siempre", "nunca", "espera", "perdona", "perdon",
    "disculpa", "siento", "nino", "ninos", "perro", "wifi", "primera", "segunda", "ultima",
    "opcion", "primero", "segundo", "tercera", "tercero", "cuarta", "quinta", "ultimo",
    "persona", "humano", "encargado", "hora", "dia", "libre", "hueco", "jaja", "venga",
    "dale", "listo", "hecho", "ya", "aqui", "alli", "es", "soy", "son",
})  # fmt: skip

CURRENCIES = {
    "€": "EUR", "eur": "EUR", "euro": "EUR", "euros": "EUR", "pavos": "EUR", "$": "USD",
    "usd": "USD", "dolar": "USD", "dolares": "USD", "£": "GBP", "gbp": "GBP", "libra": "GBP",
    "libras": "GBP",
}  # fmt: skip

SYNONYMS = {
    "fisio": "fisioterapia", "fisios": "fisioterapia", "fisioterapeuta": "fisioterapia",
    "masajes": "masaje", "corte": "corte de pelo", "depi": "depilacion", "depilar": "depilacion",
    "depilaciones": "depilacion", "manicuras": "manicura", "pedicuras": "pedicura",
}  # fmt: skip

SERVICE_IGNORED = frozenset({
    "para", "con", "del", "los", "las", "hombre", "mujer", "nino", "nina", "corto", "largo",
    "completo", "cita", "sesion",
})  # fmt: skip

QUESTION_STEMS = frozenset({
    "dónd", "dond", "cuán", "cuan", "cómo", "como", "cuál", "cual", "quié", "quie", "tené", "tene",
    "tien", "pued", "podé", "pode", "podr", "algu", "sabe", "sabé", "quer", "quis", "hola", "buen",
    "grac", "favo", "para", "esta", "este", "está", "much", "sobr", "teni", "aquí", "aqui", "tamb",
    "pero", "preg", "info", "hace", "vues", "uste", "cuen", "sería", "seri",
})  # fmt: skip

FUNCTION_WORDS = frozenset({
    "el", "la", "los", "las", "un", "una", "unos", "unas", "del", "al", "y", "que", "en", "con",
    "por", "para", "es", "son", "esta", "estoy", "soy", "mi", "mis", "tu", "se", "lo", "le", "nos",
    "os", "yo", "hola", "buenas", "buenos", "dias", "tardes", "noches", "gracias", "favor",
    "quiero", "queria", "quisiera", "necesito", "puedo", "puede", "podeis", "teneis", "tienes",
    "tengo", "hay", "cita", "reserva", "reservar", "hora", "hoy", "manana", "semana", "cuando",
    "donde", "como", "cuanto", "cuesta", "precio", "pero", "tambien", "muy", "bien", "mas", "ya",
    "vale", "claro", "perfecto", "genial", "porfa", "pasado", "proximo", "proxima", "este", "ese",
    "eso", "esto", "cancelar", "cambiar", "mover", "sobre", "hasta", "desde", "corte", "pelo",
    "masaje", "tarde", "noche", "mediodia", "llamo", "nombre", "correo", "telefono", "movil",
    "quedamos", "puedes", "podria", "sabado", "miercoles", "depilacion", "fisio", "si", "euros",
})  # fmt: skip

SPANISH = ReadingTable(
    code="es",
    fold_accents=True,
    dateparser_language="es",
    weekdays=WEEKDAYS,
    weekday=re.compile(
        r"\b(?:(?P<which>este|el\s+proximo|proximo|el|los|para\s+el)\s+)?(?P<day>"
        + "|".join(WEEKDAYS)
        + r")\b(?:\s+(?:que\s+viene|proximo))?"
    ),
    this_words=frozenset({"este"}),
    month_date=re.compile(r"\b\d{1,2}\s+de\s+" + MONTHS + r"\b(?:\s+de\s+\d{4})?"),
    # "el día 3", and a bare "el 27", "al 30", "del 3" (1–31) — not "el 3 de la tarde", "el 10%"
    # or "el 2:30" (hours are "a las 3"), nor a count ("el 2 personas", "el 3 y media").
    day_of_month=re.compile(
        r"\b(?:el\s+)?dia\s+(?P<day>\d{1,2})\b(?![:/.]\d)"
        r"|\b(?:el|al|del)\s+(?P<day_2>[12]\d|3[01]|0?[1-9])\b(?![:/.,h]\d)"
        r"(?!\s*(?:%|hs?\b|de\s+la\b|y\s+(?:media|cuarto)\b|menos\b|personas?\b|horas?\b"
        r"|min\w*|dias?\b|semanas?\b|mes(?:es)?\b|anos?\b|veces\b|euros?\b|€))"
    ),
    today=re.compile(r"\bhoy\b"),
    # "mañana" alone is tomorrow; "por la mañana", "de la mañana", "esta mañana" the morning.
    tomorrow=re.compile(r"(?<!la )(?<!esta )\b(?:manana|mnn)\b"),
    after_tomorrow=re.compile(r"\bpasado\s+manana\b"),
    in_days=re.compile(r"\b(?:dentro\s+de|en)\s+(?P<count>\d{1,2})\s+dias?\b"),
    # Not the "semana" of "el fin de semana que viene".
    next_week=re.compile(
        r"(?<!fin de )\b(?:cualquier\s+dia\s+de\s+)?(?:la\s+)?"
        r"(?:semana\s+que\s+viene|proxima\s+semana|semana\s+proxima)\b"
    ),
    weekend=re.compile(
        r"\b(?:(?:el|este)\s+)?(?:(?P<next>proximo)\s+)?(?:fin\s+de\s+semana|finde)\b"
        r"(?:\s+(?P<next_2>que\s+viene))?"
    ),
    clock=re.compile(
        r"\b(?P<hour>\d{1,2})(?::(?P<minute>\d{2})|h(?P<minute_2>\d{2})?"
        r"|\.(?P<minute_3>\d{2})(?=\s*[ap]\.?m))(?:\s*(?P<ampm>am|pm|a\.m\.|p\.m\.))?(?!\d)"
        r"(?:\s+(?P<half>" + HALF + r"))?"
        # "a las 12.30": after "las" a point is a clock, not money.
        r"|\blas?\s+(?P<hour_3>\d{1,2})\.(?P<minute_5>\d{2})(?!\d)(?:\s*hs?\b)?"
        r"(?:\s+(?P<half_3>" + HALF + r"))?"
        r"|(?<![\d.,])\b(?P<hour_2>\d{1,2})\s*(?P<ampm_2>am|pm|a\.m\.|p\.m\.)(?![a-z])"
        r"|(?:\b(?:a|sobre|hacia|para|desde|hasta|de|tipo)\s+|^)las?\s+(?P<bare>\d{1,2}|"
        + "|".join(HOUR_WORDS)
        + r")\b(?![:/.h]\d?)(?:\s*hs?\b)?"
        r"(?:\s+(?P<shift>" + SHIFT + r")\b|\s+y\s+(?P<minute_4>\d{1,2})\b)?"
        r"(?:\s+(?P<half_2>" + HALF + r")\b)?(?:\s+en\s+punto\b)?"
        r"|\b(?P<named>medianoche)\b"
    ),
    number_words=HOUR_WORDS,
    minute_words=MINUTE_WORDS,
    day_halves=DAY_HALVES,
    named_times={"medianoche": time(0)},
    daypart=re.compile(
        r"\b(?:por|de|en|a)\s+la\s+(?P<part>manana|tarde|noche)\b"
        r"|\b(?P<part_2>esta\s+(?:manana|tarde|noche))\b"
        r"|\b(?:(?:a|al)\s+)?(?P<part_3>mediodia)\b"
    ),
    daypart_words=DAYPART_WORDS,
    # "pásala a 12" while a booking is moved ("a las 12" is a clock anyway).
    moved_to=re.compile(
        r"\b(?:a|para)\s+(\d{1,2})(?![\d:/.,]|\s*(?:personas?|de\b|dias?|semanas?))\b"
    ),
    yes_phrases=YES_PHRASES,
    confirm_phrases=CONFIRM_PHRASES,
    no_phrases=NO_PHRASES,
    cancel_phrases=CANCEL_PHRASES,
    cancel_sentence=re.compile(
        r"(?<!no )(?<!nunca )\b(?:quiero|quisiera|queria|necesito|me gustaria|deseo|voy a|"
        r"tengo que|por favor)\s+(?:\w+\s+)?(?:cancel|anul)\w*"
    ),
    question_marks="?¿",
    question_words=QUESTION_WORDS,
    question_openers=QUESTION_OPENERS,
    question_phrases=re.compile(
        r"\bse\s+(?:puede|podria|hace|paga|cobra)\b|\bme\s+(?:podeis|puedes|podrias|podriais"
        r"|podrian|dices|decis|confirmais)\b|\bsabeis\s+si\b"
    ),
    clauses=re.compile(r"[.,;:!\n¡¿]|\b(?:y|pero|asi\s+que|tambien|entonces|aunque)\b"),
    filler=FILLER,
    contact_leads=re.compile(
        r"^(?:(?:te|os|le)\s+(?:paso|dejo|doy)\s+)?(?:(?:mi|el)?\s*(?:correo(?:\s+electronico)?"
        r"|e-?\s?mail|mail|movil|celular|telefono|tlf|tel|whatsapp|contacto"
        r"|numero(?:\s+(?:telefono|movil|celular|contacto))?)(?:\s+(?:es|son))?"
        r"|es|llamame|llamadme|escribeme)\s*:?\s*",
    ),
    # Digits the client gave as a phone number ("mi teléfono es 12") that did not read as one.
    phone_attempt=re.compile(
        r"\b(?:telefono|movil|celular|tlf|whatsapp|mi\s+numero|numero\s+de\s+(?:telefono|movil|"
        r"contacto))(?:\s+(?:es|seria))?\s*:?\s*(\+?\d[\d\s().-]*\d|\d)"
    ),
    name_leads=re.compile(
        r"^(?:me llamo|mi nombre es|nombre:|(soy|aqu[ií]|habla|te escribe|le escribe|"
        r"os escribe))\s+"
    ),
    # Lower-case words inside a name ("María de la Cruz", "Ortega y Gasset").
    name_particles=NAME_PARTICLES,
    not_names=NOT_NAMES,
    currencies=CURRENCIES,
    symbol_after=re.compile(
        NUMBER + r"\s?(€|\$|£|eur|euros?|pavos|usd|dolares|dolar|gbp|libras?)(?![a-z])"
    ),
    # "te doy 30", "pago 35", "¿lo dejas en 40?", "me lo haces por 40", "presupuesto de 40".
    bare_amount=re.compile(
        r"\b(?:pago|pagaria|pagar|doy|daria|dare|ofrezco|ofreceria|dejas\s+en|dejais\s+en|"
        r"deja\s+en|dejamos\s+en|dejarlo\s+en|dejarla\s+en|quedamos\s+en|quedaria\s+en|"
        r"haces\s+por|haceis\s+por|hace\s+por|presupuesto|maximo|como\s+mucho)"
        r"(?:\s+(?:es|de|unos|te|os))*\s+" + NUMBER + NOT_MONEY_AFTER
    ),
    # "¿40 te vale?", "35, ¿está bien?" as a price asked about.
    asked_amount=re.compile(
        r"(?:^|(?<=[,.;!]\s)|(?<=¿))(?<![:.,\d])" + NUMBER + r"\s+(?:vale|te\s+vale|os\s+vale|"
        r"le\s+vale|bien|ok|esta\s+bien|te\s+va\s+bien|os\s+va\s+bien|sirve|te\s+sirve)\s*\?"
    ),
    for_amount=re.compile(r"\b(?:lo|la|eso|esto|todo)\s+(?:por|en)\s+" + NUMBER + NOT_MONEY_AFTER),
    # "pagué 20 de señal", "devolución de 20 euros": no price offered.
    money_moved=re.compile(
        r"\b(?:depositos?|fianza|senal|pagad[oa]|pague|pagamos|pago\s+de|cobrad[oa]|cobraron|"
        r"cobrasteis|devoluci\w*|reembols\w*|devolv\w*|devuelv\w*|reintegr\w*)\b"
    ),
    requests={
        "cancel": re.compile(r"\b(?:cancel\w*|anul\w*)\b"),
        "move": re.compile(
            r"\b(?:cambi(?:ar|a|o|e|amos|ad)(?:la|lo)?\s+(?:(?:la|mi|de|el)\s+)?(?:cita|hora|dia|"
            r"fecha|reserva|turno)|cambi(?:ar|a|e|ad)(?:la|lo|mela|melo)|mover(?:la|lo)?|"
            r"muev\w*|movamos|aplaz\w*|pospon\w*|pospus\w*|retrasar\w*|retrasala|"
            r"adelantar\w*|adelantala|otro\s+dia|otra\s+hora|otra\s+fecha|otro\s+momento|"
            r"pas(?:ar|a|e|ad)(?:la|lo|mela|melo)\s+(?:a|al|para)|reprogram\w*"
            # "¿me la puede pasar al 3?"
            r"|(?:la|lo)\s+(?:\w+\s+)?pas(?:ar|as|a|e|ais|ariais|arias?)\s+(?:a|al|para))\b"
        ),
        "refund": re.compile(r"\b(?:devoluci\w*|reembols\w*|devolv\w*|devuelv\w*|reintegr\w*)"),
    },
    negated=re.compile(r"\b(?:no|nunca|tampoco|ni)\s+(?:\w+\s+){0,2}$"),
    # Applied to the message's words before services are matched by name.
    synonyms=SYNONYMS,
    service_ignored=SERVICE_IGNORED,
    # A request for a person, not any mention of one: "es una persona mayor", "solo una
    # persona" and "¿el personal habla inglés?" ask for nobody.
    human=re.compile(
        r"\b(?:persona\s+real|humano|alguien\s+real|atenci[oó]n\s+al\s+cliente"
        r"|(?:hablar|hable|comunicarme|contactar|p[aá]s[ae]me|p[aá]sadme|ponme|p[oó]ngame|ponedme"
        r"|me\s+(?:pasas|pasa|pones|pone)|me\s+(?:puedes|puede|pod[eé]is|podr[ií]as?)\s+"
        r"(?:pasar|poner)|quiero|quisiera|quer[ií]a|necesito|prefiero)\s+(?:con\s+|a\s+)?"
        r"(?:alguien|una\s+persona|(?:el|la)\s+encargad[oa]|encargad[oa]|un\s+agente"
        r"|(?:el|la)\s+responsable|el\s+personal|(?:un|una|alg[uú]n)\s+emplead[oa]"
        r"|(?:el|la)\s+due[nñ][oa]|recepci[oó]n)"
        r"|^\s*(?:una\s+persona|el\s+encargado|la\s+encargada|encargad[oa])"
        r"(?:,?\s+por\s+favor)?\s*[.!]*\s*$)\b",
        re.IGNORECASE,
    ),
    ordinals=ORDINALS,
    pick=re.compile(
        r"\b(?:la\s+|el\s+)?(" + "|".join(ORDINALS) + r")(?:\s+(?:opci[oó]n|hora|cita|fecha))?\b"
        r"|\bopci[oó]n\s+(?:n[uú]mero\s+)?(\d)\b",
        re.IGNORECASE,
    ),
    # A message about the client's own booking, when they came back to a new chat.
    about_my_booking=re.compile(
        r"\b(?:mi|la|nuestra|mis)\s+(?:cita|reserva|visita)s?\b|\breservad[oa]s?\b|"
        r"\bpagad[oa]\b|\bpagu[eé]\b|\bmover(?:la)?\b|\bcambiar(?:la)?\b|\bc[aá]mbiala\b|"
        r"\bp[aá]sala\b|\baplaz|\bdep[oó]sito\b|\bse[nñ]al\b|\bdevoluci[oó]n|\breembols|"
        r"\bdevolv|\bdevuelv|\b(?:citas?|reservas?)\s+(?:tengo|tenemos|ten[ií]a)\b",
        re.IGNORECASE,
    ),
    question_stems=QUESTION_STEMS,
    function_words=FUNCTION_WORDS,
    bound_before=re.compile(r"\b(?:antes\s+de|hasta)\s+(?:las?\s+)?$"),
    bound_after=re.compile(r"\b(?:despues\s+de|a\s+partir\s+de|desde)\s+(?:las?\s+)?$"),
    negated_clock=re.compile(
        r"\b(?:no|nunca|ni)\s+(?:(?:puedo|me\s+va|me\s+viene)\s+(?:bien\s+)?)?$"
    ),
    negated_after=re.compile(r"^\s*,?\s*no\b"),
    pick_followers=re.compile(
        r"\s*(?:$|[^\w\s]|(?:por\s+favor|porfa|gracias|entonces|pues|me|esta|es|vale|ok|mejor"
        r"|de\s+ellas|si|perfecto|seria|porque)\b)"
    ),
    pick_negated=re.compile(r"\b(?:no|ni|tampoco)\s+(?:quiero\s+|me\s+va\s+)?$"),
    pleasantries=frozenset({
        "hola", "buenas", "buenos", "buen", "dia", "dias", "tardes", "noches", "gracias",
        "muchas", "adios", "hasta", "luego", "saludos", "muy", "amable",
    }),
)  # fmt: skip
