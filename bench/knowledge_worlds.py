"""The knowledge bases the classifier bench gives its two businesses, as an owner would write
them: four short sources typed in the dashboard, an FAQ uploaded as Markdown and a long
handbook uploaded as a document (its sections again for each season or body part, as such
handbooks go; far beyond the prompt budget).

* ``SALON`` (English): the demo salon, Studio Lumen in Lisbon (``bookings.demo.seed_demo``).
* ``CLINIC`` (Spanish): the demo clinic, Clínica Sol in Madrid
  (``bookings.demo.seed_demo_clinic``: Fisioterapia 50 €, Masaje deportivo 60 €, Primera
  consulta 40 €, a 10 € deposit, open Monday to Friday 9–13 and 15–19). Its texts agree with
  those figures, so a Spanish answer drawn from them would be true of the demo.

The two are of like size (short sources 1,336 and 1,544 characters, handbooks 27,223 and
28,603), so the English and Spanish figures of ``bench/classifier.py`` compare like with like.
"""

from dataclasses import dataclass
from pathlib import Path

CORPUS_DIR = Path(__file__).resolve().parent.parent / "tests" / "agent" / "corpus"
HANDBOOK_ROUNDS = 12


@dataclass(frozen=True)
class KnowledgeWorld:
    language: str
    corpus: Path  # the labelled client messages written to this business
    short_sources: dict[str, str]
    faq_title: str
    faq: str
    handbook_title: str
    handbook_sections: list[tuple[str, str]]

    def handbook(self) -> str:
        parts = [f"# {self.handbook_title}"]
        for round_number in range(1, HANDBOOK_ROUNDS + 1):
            for title, text in self.handbook_sections:
                parts.append(f"## {round_number}. {title}\n\n{text}")
        return "\n\n".join(parts)


def build_knowledge_base(business, world: KnowledgeWorld) -> None:
    """Give ``business`` the sources of ``world`` through the service an owner's upload uses."""
    from django.core.files.base import ContentFile

    from knowledge.models import KnowledgeSource, SourceKind
    from knowledge.services import knowledge_source_create

    for title, body in world.short_sources.items():
        knowledge_source_create(business=business, kind=SourceKind.TEXT, title=title, body=body)
    for title, name, content in [
        (world.faq_title, "faq.md", world.faq),
        (world.handbook_title, "handbook.md", world.handbook()),
    ]:
        upload = KnowledgeSource(business=business, kind=SourceKind.DOCUMENT, title=title)
        upload.file.save(name, ContentFile(content.encode()), save=False)
        knowledge_source_create(
            business=business, kind=SourceKind.DOCUMENT, title=title, file=upload.file.name
        )


SALON = KnowledgeWorld(
    language="en",
    corpus=CORPUS_DIR / "client_messages.jsonl",
    short_sources={
        "Prices": (
            "Haircut (wash, cut and blow-dry): 60 €. Children under 12: 35 €. Fringe trim "
            "between cuts: free for clients. Colour (roots or full, one tone): from 150 €; "
            "highlights and balayage from 180 €, quoted after a free 15-minute consultation. "
            "Beard trim: 25 €; hot-towel shave: 30 €. Students get 10 % off on weekdays with a "
            "valid card. Prices include VAT. Olaplex treatment: add 20 € to any colour."
        ),
        "Parking and getting here": (
            "Studio Lumen is at Rua das Flores 28, Lisbon, ground floor, step-free. The nearest "
            "metro is Baixa-Chiado (green and blue lines), four minutes on foot. There is no "
            "parking at the salon; the Camões car park (Largo do Camões) is 200 m away and "
            "gives clients two hours for 3 € with our stamp. Bicycles can be left in the "
            "courtyard."
        ),
        "Cancellations, lateness and deposits": (
            "Colour appointments need a 40 € deposit, taken when you book and counted towards "
            "the price. Cancel or move any appointment up to 24 hours before and the deposit "
            "is refunded in full. Later than that, or not coming, the deposit is kept. If you "
            "are more than 15 minutes late we may have to shorten the service or move you to "
            "the next free time so that the next client is not kept waiting. Tell us as early "
            "as you can."
        ),
        "Payment": (
            "We take cash, Multibanco, Visa, Mastercard, Apple Pay and MB Way. Invoices with "
            "your tax number (NIF) on request. Gift vouchers from 25 € are sold at the desk and "
            "online; they are valid for twelve months."
        ),
    },
    faq_title="Frequently asked questions",
    faq="""# Frequently asked questions

## Can I bring my children?
Yes. Children are welcome; there is a small play corner. Children under 12 have their own price.

## Can I bring my dog?
Small, calm dogs on a lead are welcome. Please tell us when you book.

## Do I need to wash my hair before colour?
No. Come with hair as you usually wear it; avoid washing it the same morning if your scalp is
sensitive.

## Do you speak English?
Yes: Ana, Rui and Sofia speak English; Sofia also speaks French and Spanish.

## Are you open on public holidays?
No. We are closed on Sundays, Mondays and public holidays, and between 24 and 26 December.

## Do you sell the products you use?
Yes. We use and sell Davines and Olaplex; products can be bought without an appointment during
opening hours.

## Is there Wi-Fi?
Yes, the network is StudioLumen-Guest; ask at the desk for the password.
""",
    handbook_title="Colour and aftercare handbook",
    handbook_sections=[
        (
            "Before your colour",
            "A patch test 48 hours before a first colour, or after a reaction to any dye, is "
            "free and takes five minutes. Tell us about pregnancy, medication, a sensitive or "
            "broken scalp and any colour done at home in the last year: box dyes change how "
            "our colour takes and can make lightening unsafe in a single visit.",
        ),
        (
            "Choosing a shade",
            "Your stylist reads your natural base, the porosity of your lengths and the "
            "undertone of your skin. Warm shades fade towards copper, cool shades towards ash; "
            "a gloss every six to eight weeks keeps either true. Going more than two levels "
            "lighter is usually done over two visits to protect the hair.",
        ),
        (
            "Highlights and balayage",
            "Foil highlights give an even, structured lift from the root; balayage is painted "
            "by hand and grows out softly, so it needs refreshing less often. Both include a "
            "toner. Expect three to four hours for a full head, including the consultation.",
        ),
        (
            "Grey coverage",
            "Permanent colour covers grey fully and grows out with a visible line; "
            "demi-permanent colour blends grey and fades gently over six weeks. Many clients "
            "move from one to the other as the share of grey grows; your stylist will suggest "
            "the moment.",
        ),
        (
            "Aftercare, the first week",
            "Wait 72 hours before the first wash. Use lukewarm water and a sulphate-free "
            "shampoo; heat tools below 180 °C; a heat protector every time. Chlorine and salt "
            "water strip fresh colour: wear a cap or rinse with fresh water straight away.",
        ),
        (
            "Aftercare, every day",
            "Wash two or three times a week, condition the lengths only, and use a mask once a "
            "week. Sun fades colour like it fades fabric: a hat or a UV spray in summer keeps "
            "the tone. Purple shampoo once a week keeps blonde from turning brassy; more dries "
            "the ends.",
        ),
        (
            "When something is not right",
            "If the colour is not what we agreed, tell us within seven days: a correction is "
            "free of charge. Itching, redness or swelling after colour is a reaction — rinse "
            "with cool water, do not apply anything else, and call us or a pharmacist.",
        ),
        (
            "Keratin and smoothing",
            "A keratin smoothing treatment takes two to three hours and lasts three to five "
            "months. Do not wash, tie or clip the hair for 48 hours afterwards. It is not done "
            "during pregnancy, and not on the same day as lightening.",
        ),
    ],
)

CLINIC = KnowledgeWorld(
    language="es",
    corpus=CORPUS_DIR / "client_messages_es.jsonl",
    short_sources={
        "Precios": (
            "Primera consulta (30 minutos: valoración, historia clínica y, si da tiempo, un "
            "primer tratamiento): 40 €. Sesión de fisioterapia (45 minutos): 50 €. Masaje "
            "deportivo (60 minutos): 60 €. Bono de cinco sesiones de fisioterapia: 225 €, "
            "válido seis meses. Estudiantes y mayores de 65 años: 10 % de descuento de lunes a "
            "viernes por la mañana. La punción seca va incluida en la sesión cuando la "
            "fisioterapeuta la indica. Los servicios sanitarios están exentos de IVA; el masaje "
            "deportivo lo incluye."
        ),
        "Cómo llegar y aparcamiento": (
            "Clínica Sol está en la calle de Atocha 45, primero izquierda, 28012 Madrid, con "
            "ascensor y sin escalones desde la calle. Metro Antón Martín (línea 1), a tres "
            "minutos andando; Atocha (Cercanías y Renfe), a diez. No tenemos aparcamiento "
            "propio: la calle es zona SER y el aparcamiento público de la calle Magdalena está "
            "a 150 m. Hay aparcabicis en la puerta."
        ),
        "Cancelaciones, retrasos y señal": (
            "Al reservar se paga una señal de 10 €, que se descuenta del precio (la primera "
            "consulta no lleva señal). Si anulas o cambias la cita hasta 24 horas antes, te "
            "devolvemos la señal entera; más tarde, o si no vienes, la señal se pierde. Si "
            "llegas más de 10 minutos tarde, la sesión se acorta para no retrasar al siguiente "
            "paciente. Si una sesión no te ha servido, escríbenos en los dos días siguientes: "
            "devolvemos hasta 50 €."
        ),
        "Pago y facturas": (
            "Aceptamos efectivo, tarjeta (Visa y Mastercard), Bizum, Apple Pay y Google Pay. "
            "Factura con tu NIF o DNI si la pides al pagar. No tenemos concierto con mutuas, "
            "pero te damos el justificante para que tu seguro te reembolse. Vendemos tarjetas "
            "regalo desde 40 €, válidas un año."
        ),
    },
    faq_title="Preguntas frecuentes",
    faq="""# Preguntas frecuentes

## ¿Necesito volante o receta médica?
No. Puedes venir directamente; si tienes informes, radiografías o una resonancia, tráelos a la
primera consulta.

## ¿Qué ropa tengo que llevar?
Ropa cómoda. Si vienes por la rodilla o el tobillo, mejor pantalón corto.

## ¿Puedo venir con mi hijo?
Sí. Atendemos a niños desde los 6 años, siempre con un adulto. Los niños pequeños pueden esperar
en la sala de espera con quien los acompañe.

## ¿Puedo recibir un masaje si estoy embarazada?
Sí, a partir del segundo trimestre y con la fisioterapeuta de suelo pélvico. Dínoslo al reservar.

## ¿En qué idiomas atendéis?
En español e inglés; Laura también habla francés.

## ¿Cuál es el horario?
De lunes a viernes, de 9 a 13 y de 15 a 19. Cerramos los fines de semana y los festivos de
Madrid; en agosto, solo por las mañanas.

## ¿Puedo ir con mi perro?
Solo perros de asistencia.

## ¿Hay wifi?
Sí, la red es ClinicaSol-Invitados; la contraseña está en recepción.
""",
    handbook_title="Guía de ejercicios y cuidados",
    handbook_sections=[
        (
            "Antes de la primera consulta",
            "Apunta cuándo empezó el dolor, qué lo empeora y qué lo alivia, y trae la lista de "
            "medicamentos que tomas. Cuéntanos si has tenido operaciones, fracturas, problemas "
            "de coagulación o marcapasos: cambian qué técnicas podemos usar. No hace falta "
            "venir en ayunas ni dejar de hacer deporte los días antes.",
        ),
        (
            "Dolor después de la sesión",
            "Es normal notar la zona cargada o dolorida durante uno o dos días, como después "
            "de un entrenamiento. Camina, bebe agua y evita el ejercicio intenso ese día. Si el "
            "dolor es mayor que antes de venir o dura más de 72 horas, llámanos: ajustaremos "
            "el tratamiento en la siguiente sesión.",
        ),
        (
            "Punción seca",
            "La punción seca usa agujas muy finas, sin medicamento, sobre puntos gatillo del "
            "músculo. Puede producir un pequeño moratón y sensación de agujetas durante un día. "
            "No se aplica durante el embarazo, con miedo intenso a las agujas ni sobre piel "
            "dañada; siempre te preguntamos antes.",
        ),
        (
            "Ejercicios para la espalda",
            "Tumbado boca arriba con las rodillas dobladas, lleva una rodilla al pecho y "
            "mantén veinte segundos; cambia de lado. Después, a cuatro patas, arquea y redondea "
            "la espalda despacio diez veces. Hazlos cada mañana; si alguno duele, para y "
            "coméntalo en consulta.",
        ),
        (
            "Ejercicios para la rodilla",
            "Sentado en una silla, estira la rodilla del todo y aprieta el muslo cinco "
            "segundos, diez veces por pierna. De pie junto a una pared, baja unos centímetros "
            "doblando las rodillas sin que pasen de la punta de los pies. Sube la dificultad "
            "solo cuando no haya dolor al día siguiente.",
        ),
        (
            "Masaje deportivo y competición",
            "Antes de una competición, el masaje es corto y activador, el día anterior o el "
            "mismo día. Después, espera al menos 24 horas para un masaje de descarga. En "
            "semanas de mucha carga, una sesión cada diez o quince días ayuda a prevenir "
            "sobrecargas y contracturas.",
        ),
        (
            "Calor o frío",
            "Frío en las primeras 48 horas tras un golpe o un esguince: quince minutos, con un "
            "paño entre el hielo y la piel. Calor para la rigidez y las contracturas antiguas, "
            "nunca sobre una zona inflamada. Si dudas, el frío es la opción segura.",
        ),
        (
            "Cuándo volver a consulta",
            "Vuelve antes de la fecha prevista si notas hormigueo, pérdida de fuerza o dolor "
            "que te despierta por la noche. Si tras tres sesiones no hay mejoría, revisaremos "
            "el diagnóstico contigo y, si hace falta, te derivaremos a tu médico.",
        ),
    ],
)
