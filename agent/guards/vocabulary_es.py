"""The words the status guard knows in Spanish, and how it reads a Spanish word. Pure tables;
``agent.guards.vocabulary`` turns them into the Spanish ``Vocabulary``.

The same whitelist as the English one (ADR 0007), as narrow: small talk, offering times, the
booking's things, and the state words per topic. A word missing here fails closed.

A Spanish word is read to a rough stem, by rule, not by dictionary: accents dropped, irregular
participles mapped ("devuelto" → "devolver", "hecho" → "hacer"), then one ending stripped — a
participle ("-ada", "-ados"), a noun's ("-ción", "-ciones", "-mente"), a verb's ("-amos",
"-aron", "-ar"), a plural ("-es", "-s") or a final vowel — so "reserva", "reservas",
"reservada" and "reservar" all read "reserv" and "tarde"/"tardes" both read "tard". Two words
that share a stem read the same: harmless in a whitelist, since a state word is matched first.
"""

from __future__ import annotations

from functools import lru_cache

from agent.guards.reading import plain

IRREGULAR = {
    "devuelto": "devolver",
    "devuelta": "devolver",
    "devueltos": "devolver",
    "devueltas": "devolver",
    "hecho": "hacer",
    "hecha": "hacer",
    "puesto": "poner",
    "puesta": "poner",
    "visto": "ver",
    "dicho": "decir",
    "escrito": "escribir",
    "abierto": "abrir",
    "abierta": "abrir",
    "abiertos": "abrir",
    "abiertas": "abrir",
    "vuelto": "volver",
}
# Longest first within each kind: a participle before its plural, a plural before a vowel.
_ENDINGS = (
    "aciones", "iciones", "ciones", "siones", "acion", "icion", "cion", "sion",
    "amente", "mente", "adas", "ados", "idas", "idos", "ada", "ado", "ida", "ido",
    "ando", "iendo", "aron", "ieron", "amos", "emos", "imos", "aba", "aban",
    "ar", "er", "ir", "es", "as", "os", "a", "o", "e", "s",
)  # fmt: skip
_SHORTEST_STEM = 3
# A pronoun written onto an infinitive: "reservarle", "hacerlo", "enviárselo".
_CLITICS = ("selo", "sela", "melo", "les", "los", "las", "nos", "lo", "la", "le", "me", "se", "te")


@lru_cache(maxsize=8192)
def spanish_lemma(word: str) -> str:
    """A Spanish word's rough stem: enough to compare it with a short list, not a dictionary."""
    word = plain(word).replace("'", "")
    word = IRREGULAR.get(word, word)
    for clitic in _CLITICS:
        if word.endswith(clitic) and word[: -len(clitic)].endswith(("ar", "er", "ir")):
            word = word[: -len(clitic)]
            break
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= _SHORTEST_STEM:
            return word[: -len(ending)]
    return word


# Function words and the words of being polite.
FUNCTION = """
el la los las lo un una unos unas uno este esta estos estas ese esa esos esas eso esto aqui
alli ahi yo me mi mis mio mia conmigo tu te ti tus usted ustedes le les su sus suyo suya
nosotros nosotras nos nuestro nuestra nuestros nuestras ellos ellas ella se si sí
y e o u pero asi que porque pues como cuando donde mientras aunque tambien
a al de del en con sin para por sobre entre hasta desde hacia tras durante antes despues cerca
ser es son era eran fue fueron sera seria sido soy somos
estar esta estan estoy estamos estaba estaban estara estaria
haber ha han he hemos hay habia habra habria tener tiene tienen tengo tenemos tenga
hacer hace hago hacemos puedo puede podemos pueden podria podriamos poder
quiero quiere queremos quisiera gustaria gusta voy va vamos van ir necesito necesita
que cual cuales quien quienes cuanto cuanta cuantos cuantas
todo toda todos todas algo alguno alguna algun nada ninguno ninguna ningun nunca no
ya aun todavia solo solamente tampoco mas menos muy mucho mucha muchos muchas poco poca
otro otra otros otras mismo misma cada ambos ambas
bien vale claro ok hoy pronto luego ahora siempre
ver veo vemos ve venir viene vienen vendria ir
am pm h eur euro euros usd dolar dolares
"""
SMALL_TALK = """
hola buenos buenas dia dias tardes noches bienvenido bienvenida bienvenidos
gracias encantado encantada placer gusto alegra alegro genial estupendo estupenda maravilloso
fantastico amable siento sentimos lamento disculpe disculpa disculpas perdon perdone
lamentablemente desgraciadamente afortunadamente favor
ayuda ayudar ayudarle ayudarte pregunta preguntas respuesta consulta duda dudas
saber sabe decir diga digame avisar aviseme escribir escribirnos contactar hablar
equipo companero companera persona momento rato
gustar preferir prefiere elegir escoger conviene convenga encaja funciona
opcion opciones eleccion suena perfecto perfecta problema preocupe adios saludos cuidese
"""
# Offering times, and the booking's things named without a state. "mañana" is a day: the dates
# guard checks it.
OFFER = """
abierto abierta disponible disponibles disponibilidad libre libres hora horas horario horarios hueco
huecos plaza plazas dia fecha fechas manana tarde noche mediodia temprano proximo proxima
siguiente primero primera segundo segunda ultimo ultima semana semanas
servicio servicios tratamiento corte nombre direccion telefono numero datos enlace correo
minuto minutos dura duracion punto media cuarto
lunes martes miercoles jueves viernes sabado domingo
enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre
diciembre
una dos tres cuatro cinco seis siete ocho nueve diez once doce
"""
# The state words, per topic, as stems of ``spanish_lemma``: kept short on purpose.
STATES = {
    "booking": ("confirm", "reserv", "agend", "program", "asegur", "finaliz", "complet", "apunt",
                "anot"),
    "hold": ("apart", "guard", "bloque", "manten"),
    "payment": ("pag", "abon", "cobr", "recib", "senal", "deposit"),
    "refund": ("reembols", "devol", "devuel", "reintegr"),
    "cancel": ("cancel", "anul"),
    "message": ("envi", "reenvi", "mand"),
    "move": ("mov", "cambi", "traslad", "reprogram", "reagend"),
    "price": ("preci", "cost", "cuest", "tarif"),
    "discount": ("descuent", "descont", "rebaj", "gratis", "gratuit", "barat", "reduc"),
}  # fmt: skip
# Claims made of plain words, matched on whole words of the plain sentence. "Es suyo": the time
# is the client's; "tiene hora": in Spain, having an appointment — both a booking.
PHRASES = {
    "booking": ("listo", "lista", "hecho", "nos vemos", "en el calendario",
                "en la agenda", "suyo", "suya", "suyos", "suyas", "tuyo", "tuya", "tuyos",
                "tuyas", "tiene hora", "tienes hora", "tiene su hora", "tienes tu hora",
                "tiene usted hora", "tiene la hora", "tienes la hora", "tiene ya hora",
                "tiene plaza", "tienes plaza", "tiene su plaza", "tienes tu plaza"),
    "hold": ("reservado para usted", "reservada para usted", "reservado para ti",
             "reservada para ti"),
    "refund": ("dinero de vuelta", "de vuelta a su", "de vuelta en su"),
    "discount": ("%", "por ciento", "mitad de precio", "sin coste", "sin costo", "sin cargo",
                 "invita la casa"),
}  # fmt: skip
THINGS = {
    "booking": ("reserva", "cita", "visita", "sesion", "hueco", "turno"),
    "payment": ("deposito", "pago", "dinero", "tarjeta"),
}
# "No tiene que hacer nada más": the booking is complete. The "no" is the claim, not a denial
# (``Vocabulary.completions``); patterns over the plain sentence.
COMPLETIONS = (
    r"\bno (?:\w+ ){0,2}?(?:tiene|tienes|tendra|tendras|hay|necesita|necesitas|hace falta)"
    r"(?: que)? (?:\w+ )?(?:hacer|haga|hagas) nada\b",
    r"\b(?:no (?:\w+ ){0,3}?)?nada (?:mas )?(?:que|por) hacer\b",
    r"\b(?:eso|esto) es todo\b(?: \w+){0,4}? hacer\b",
    r"\bya esta todo\b",
)
# "todavía no", "aún no": the "no" is enough.
NEGATIONS = frozenset({"no", "nada", "nunca", "jamas", "ninguno", "ninguna", "ningun", "nadie"})
