"""Common given names, for the routine-turn classifier only (``reading.is_routine``).

A message that is only a name needs no knowledge base, but "Balayage", "gel nails" or
"wher r u" look just like one to a reader that knows no names: name-shaped words that are not
names. So a bare name counts as routine only when its first word is a given name known here,
or when the client said it was their name ("my name is ..."). A name missing from this list
costs one knowledge fetch, never a wrong answer: the list only ever makes the classifier more
careful.

Written as the names are commonly spelled in Portugal, Brazil, Spain, the English-speaking
countries, France, Italy, Germany and the Netherlands; lower case, accents removed (compared
after the same folding). Names that are also everyday words a client might write about a
visit ("Rose", "Rosa", "Jade", "Max", "Will", "Mark", "Summer", and in Portuguese "Clara",
"Linda", "Tom") are left out on purpose: "rose gold" is a nail colour, "max 30" a budget, "mais
clara" a lighter shade.
"""

_WRITTEN = """
    abel abigail ada adam adelaide adriana adriano adrian adrien afonso agata agnes agostinho
    aida aitana alain alan alba albert alberto alejandra alejandro alessandra alessandro alex
    alexander alexandra alexandre alexis alfredo ali alice alicia alina alison alvaro amanda
    amelia amelie ana anabela andre andrea andreas andreia andres andrew angela angelica angelo
    anita anna anne annie anthony antoine antonia antonio aria ariana arianna arthur artur
    aurelio aurora barbara bart bastian beatrice beatriz ben benedita benjamin bernardo bianca
    brian bruna bruno camila camille carina carla carlos carlota carmen carolina caroline
    cassandra catarina catherine cecilia celia celine charlie charlotte chiara chloe chris
    christian christina christine christopher cintia claudia claudio clement clementina
    constanca cristiana cristiano cristina daan damien daniel daniela daniele danielle david
    davide debora denis diana diego dimitri dinis diogo dolores dominic dominique duarte
    edgar eduarda eduardo elena eleonora eliana elisa elisabete elisabeth elise ellen eloise
    emanuel emilia emily emma enrique enzo eric erica erik ester esther eugenia eva evelyn
    fabio fabiana fatima federica federico felipe felix fernanda fernando filipa filipe
    florence francesca francesco francisca francisco franck franziska frederico gabriel
    gabriela gabriele gabrielle gaspar george georgia gerardo gianluca gil gilberto gina giorgia
    giovanni giulia giuseppe goncalo graca gregorio guilherme guillaume gustavo hannah harry
    hector helena helene henrique henry hugo ian ignacio ines ingrid irene isaac isabel
    isabela isabella isabelle isadora ivan ivo jacob jaime james jan jana jane jasmine javier
    jean jeanne jennifer jessica joana joao joaquim joaquin joel johan johanna john jonas
    jordi jorge jose josefina joseph josh joshua juan julia julian juliana julie julien
    julio jurgen kai karen karin karina kate katharina katherine katia kevin klara laila lara
    laura laure lauren laurent lea leandro leo leon leonardo leonor leticia liam liliana
    lisa livia lorena lorenzo louis louise lourenco luana luca lucas lucia luciana luciano
    lucie lucy luis luisa luiz lukas madalena magda manon manuel manuela marc marcela marcelo
    marco marcos marcus margarida margaret maria mariana marie marina mario marisa marta martim
    martin martina mateo mateus matheus mathias matias matilde matteo matthew matthias maud
    maximilian maya megan melanie melissa mia michael michel michele miguel milena mirela
    miriam monica nadia natalia natalie nathalie nelson nicolas nicola nicole niels nina noah
    noemi nora nuno olga olivia oliver oscar pablo paola patricia patrick paula paulo pedro
    petra philippe pierre pietro pilar priscila rafael rafaela raquel raul rebeca rebecca
    renata renato ricardo rita roberta roberto rodrigo rogerio romain ronaldo rosana ruben
    rui ruth sabrina salome salvador samuel sandra sandro santiago sara sarah sebastian
    sebastiao sergio silvia simao simon simone sofia sonia sophie stefan stefano stella
    stephanie susana sven tania tatiana teresa thiago thomas tiago tim tobias tomas tomaz
    valentina valeria vanessa vasco veronica vicente victor vincent vinicius vitor
    vitoria viviane william xavier yara yasmin zoe
"""
GIVEN_NAMES: frozenset[str] = frozenset(_WRITTEN.split())
