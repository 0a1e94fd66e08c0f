#!/usr/bin/env python3
"""Regenerate the shipped sample dataset, deterministically.

    python resources/samples/make_sample.py

writes, next to this script:

* ``qa_extraction_sample.csv``   -- id,task,question,expected,output_a,output_b,label
* ``qa_extraction_sample.jsonl`` -- the same rows, with expected/outputs nested under
  ``reference.answer`` / ``output_a.answer`` / ``output_b.answer`` (extraction answers are JSON
  objects there whenever the model's text parses as JSON)

Every question, answer, paraphrase, wrong answer and source text below is hand-written for this
sample; the only randomness is *which* kind of slip each output gets, drawn from a fixed seed, so
running the script twice gives byte-identical files.  Standard library only.

The story the data tells: two prompt variants of the same model.  Variant A ("plain prompt") is
chatty and sloppy with formats; variant B ("answer-only prompt with a format example") is exact far
more often but still wrong on some rows, and occasionally worse than A.  ``label`` is a human's
verdict on ``output_a`` following the rubric in README.md: content counts, formatting does not
(case, whitespace, a correct paraphrase, a ```json fence, 1 vs 1.0 all pass); a wrong fact, a wrong
number, a missing key, a string where a boolean belongs, or text that does not parse as JSON fails.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
CSV_PATH = HERE / "qa_extraction_sample.csv"
JSONL_PATH = HERE / "qa_extraction_sample.jsonl"
SEED = 20240514
COLUMNS = ["id", "task", "question", "expected", "output_a", "output_b", "label"]


# ---------------------------------------------------------------------------------------------
# Short-answer question answering: hand-written facts
# ---------------------------------------------------------------------------------------------

def Q(question, expected, para, wrong, near=None, neg=None, *, strict=False, fixed=None):
    """One QA item.

    para   -- a correct answer in other words (a human passes it; string metrics score it low)
    wrong  -- a plainly wrong answer
    near   -- a wrong answer that *looks* close (high string similarity, still a fail)
    neg    -- a negation trap: the expected sentence with its polarity flipped
    strict -- case and spelling matter (code, chemical symbols): a case slip or typo fails
    fixed  -- (output_a, output_b, label) written by hand instead of drawn
    """
    return dict(question=question, expected=expected, para=para, wrong=wrong, near=near,
                neg=neg, strict=strict, fixed=fixed)


QA = [
    # --- geography ---
    Q("What is the capital of France?", "Paris",
      "Paris is the capital of France.", "Lyon"),
    Q("What is the capital of Australia?", "Canberra",
      "The capital of Australia is Canberra, not Sydney.", "Sydney"),
    Q("What is the capital of Canada?", "Ottawa",
      "Canada's capital city is Ottawa, in Ontario.", "Toronto"),
    Q("Which is the longest river in South America?", "The Amazon",
      "The Amazon River is the longest river in South America.", "The Paraná"),
    Q("What is the largest city in Brazil by population?", "São Paulo",
      "Brazil's most populous city is São Paulo.", "Rio de Janeiro",
      fixed=("Sao Paulo", "São Paulo", "pass")),
    Q("What is the capital of Japan?", "Tokyo",
      "Japan's capital is Tokyo.", "Kyoto",
      fixed=("東京 (Tokyo)", "Tokyo", "pass")),
    Q("Which ocean lies between Africa and Australia?", "The Indian Ocean",
      "That is the Indian Ocean.", "The Pacific Ocean"),
    Q("What is the highest mountain in Africa?", "Mount Kilimanjaro",
      "Kilimanjaro, in Tanzania, is Africa's highest peak.", "Mont Blanc",
      near="Mount Kenya"),
    Q("How many countries share a land border with Germany?", "9",
      "Germany has nine neighbouring countries.", "7", near="8"),
    Q("What is the smallest country in the world by area?", "Vatican City",
      "Vatican City, at about 0.44 square kilometres, is the smallest.", "Monaco"),
    Q("Which river flows through Budapest?", "The Danube",
      "Budapest sits on the Danube, which divides Buda from Pest.", "The Vltava"),
    Q("What is the capital of New Zealand?", "Wellington",
      "New Zealand's capital is Wellington, at the southern tip of the North Island.",
      "Auckland"),
    Q("Which desert covers most of northern Africa?", "The Sahara",
      "Most of North Africa is covered by the Sahara Desert.", "The Kalahari",
      near="The Sahel"),
    Q("What is the capital of Iceland?", "Reykjavík",
      "The capital is Reykjavik.", "Oslo"),
    Q("Which US state has the longest coastline?", "Alaska",
      "Alaska has the longest coastline of any US state.", "Florida"),
    Q("What is the international calling code for Canada?", "+1",
      "Canada uses the country code +1, shared with the United States.", "+44", near="+11"),
    Q("Which strait separates Spain from Morocco?", "The Strait of Gibraltar",
      "Spain and Morocco are separated by the Strait of Gibraltar.", "The Bosphorus",
      near="The Strait of Messina"),
    Q("What is the capital of Turkey?", "Ankara",
      "Turkey's capital is Ankara, although Istanbul is its largest city.", "Istanbul"),
    Q("In which country is the city of Timbuktu?", "Mali",
      "Timbuktu is in Mali.", "Niger", near="Malawi"),
    Q("What is the longest river in Europe?", "The Volga",
      "Europe's longest river is the Volga, in Russia.", "The Danube"),
    Q("Which country has the most time zones, counting overseas territories?", "France",
      "France, thanks to its overseas territories, has 12 time zones, more than any other "
      "country.", "Russia"),
    Q("What is the capital of Switzerland?", "Bern",
      "Switzerland has no capital in law, but Bern is the federal city and seat of government.",
      "Zürich", near="Basel"),
    Q("Which two countries share the longest international land border?",
      "Canada and the United States",
      "The longest land border is the one between the United States and Canada.",
      "Russia and Kazakhstan", near="Canada and Mexico"),
    Q("What is the name of the sea between Italy and the Balkans?", "The Adriatic Sea",
      "That's the Adriatic.", "The Black Sea", near="The Aegean Sea"),
    Q("Name the three Baltic states.", "Estonia, Latvia and Lithuania",
      "The Baltic states are Lithuania, Latvia and Estonia.", "Poland, Belarus and Ukraine",
      near="Estonia, Latvia and Finland"),
    Q("Is Greenland part of the European Union?",
      "No, Greenland is not in the European Union; it left in 1985.",
      "Greenland withdrew from the European Communities in 1985 after a referendum, so it is "
      "outside the EU.", "Yes, as part of Denmark.",
      neg="Yes, Greenland is in the European Union; it joined in 1985."),
    Q("What is the approximate population of Iceland?", "About 380,000",
      "Roughly 380 thousand people live in Iceland.", "About 3.8 million",
      near="About 38,000"),
    Q("Through how many countries does the Equator pass?", "13",
      "The Equator crosses 13 countries, from Ecuador to Kiribati.", "9", near="11"),
    Q("Which is the deepest lake in the world?", "Lake Baikal",
      "Lake Baikal in Siberia, about 1,640 metres deep, is the deepest lake.",
      "Lake Tanganyika", near="Lake Balkhash"),
    Q("What are the two official languages of Canada?", "English and French",
      "Canada's official languages are French and English.", "English only",
      near="English and Spanish"),

    # --- science ---
    Q("What is the chemical symbol for gold?", "Au",
      "Gold's symbol is Au, from the Latin aurum.", "Ag", near="Go", strict=True),
    Q("What is the boiling point of water at sea level, in degrees Celsius?", "100",
      "Water boils at 100 °C at standard atmospheric pressure.", "212"),
    Q("At what temperature are the Celsius and Fahrenheit scales equal?", "-40",
      "They meet at minus forty: −40 °C is the same as −40 °F.", "0", near="40"),
    Q("How many bones are in the adult human body?", "206",
      "An adult human skeleton typically has 206 bones.", "212", near="204"),
    Q("What is known as the powerhouse of the cell?", "The mitochondrion",
      "Mitochondria are called the powerhouse of the cell because they make most of its ATP.",
      "The nucleus"),
    Q("What gas do plants absorb from the atmosphere for photosynthesis?", "Carbon dioxide",
      "Plants take in carbon dioxide (CO2) and release oxygen.", "Oxygen",
      near="Carbon monoxide"),
    Q("What is the speed of light in a vacuum, in metres per second?", "299,792,458 m/s",
      "Exactly 299 792 458 metres per second; the metre is defined from it.",
      "3 × 10^6 m/s", near="299,792,485 m/s"),
    Q("Who proposed the theory of general relativity?", "Albert Einstein",
      "General relativity was published by Albert Einstein in 1915.", "Isaac Newton"),
    Q("What is the most abundant gas in Earth's atmosphere?", "Nitrogen",
      "About 78% of the air is nitrogen.", "Oxygen"),
    Q("Which unit, equal to 10^-10 metres, is named after a Swedish physicist?",
      "The ångström (Å)",
      "The ångström, named after Anders Jonas Ångström.", "The nanometre",
      fixed=("The angstrom", "The ångström (Å)", "pass")),
    Q("What is the hardest naturally occurring mineral?", "Diamond",
      "Diamond, which scores 10 on the Mohs scale.", "Quartz"),
    Q("How many chromosomes does a human cell normally have?", "46",
      "Humans normally have 46 chromosomes, in 23 pairs.", "23", near="48"),
    Q("What is the atomic number of carbon?", "6",
      "Carbon has atomic number 6: six protons.", "12", near="8"),
    Q("Which planet is known as the Red Planet?", "Mars",
      "Mars is called the Red Planet because of the iron oxide on its surface.", "Jupiter"),
    Q("Is a tomato botanically a fruit?",
      "Yes, a tomato is botanically a fruit (a berry).",
      "Botanically speaking, tomatoes are fruits; specifically, berries.",
      "No, it is a vegetable.",
      neg="No, a tomato is not botanically a fruit (a berry)."),
    Q("Is glass a liquid at room temperature?",
      "No, glass is an amorphous solid, not a slow-flowing liquid.",
      "Glass is an amorphous solid. Old window panes are thicker at the bottom because of how "
      "they were made, not because the glass flowed.",
      "Yes, it flows very slowly over centuries.",
      neg="Yes, glass is a slow-flowing liquid, not an amorphous solid."),
    Q("Does sound travel faster in water than in air?",
      "Yes, sound travels about four times faster in water than in air.",
      "Yes: roughly 1,480 m/s in water against 343 m/s in air.",
      "No, sound is slower in water.",
      neg="No, sound does not travel faster in water than in air."),
    Q("What is absolute zero in degrees Celsius?", "-273.15 °C",
      "Absolute zero is −273.15 degrees Celsius, or 0 kelvin.", "-459.67 °C",
      near="-273.51 °C"),
    Q("Which subatomic particle has a negative electric charge?", "The electron",
      "Electrons carry a negative charge.", "The proton", near="The neutron"),
    Q("What is the SI unit of force?", "The newton",
      "Force is measured in newtons (N).", "The joule", near="The newton-metre"),
    Q("What is the main component of natural gas?", "Methane",
      "Natural gas is mostly methane (CH4).", "Propane", near="Ethane"),
    Q("Which blood type is the universal donor for red cells?", "O negative",
      "O-negative red cells can be given to almost anyone.", "AB positive",
      near="O positive"),
    Q("What is the pH of pure water at 25 °C?", "7",
      "Pure water at 25 °C is neutral, with a pH of 7.", "0", near="7.4"),
    Q("What is the process by which a liquid turns into a gas below its boiling point?",
      "Evaporation", "That's evaporation.", "Condensation", near="Sublimation"),
    Q("What does DNA stand for?", "Deoxyribonucleic acid",
      "DNA is short for deoxyribonucleic acid.", "Dinitrogen acid",
      near="Ribonucleic acid"),
    Q("How long does light from the Sun take to reach Earth?", "About 8 minutes and 20 seconds",
      "Sunlight takes roughly 8.3 minutes to reach us.", "About 8 seconds",
      near="About 8 hours and 20 minutes"),
    Q("Which organ produces insulin?", "The pancreas",
      "Insulin is made by the beta cells of the pancreas.", "The liver"),
    Q("Which element has the chemical symbol Na?", "Sodium",
      "Na is sodium, from the Latin natrium.", "Nitrogen", near="Sodium chloride"),
    Q("List the three primary colours of light, one per line.", "red\ngreen\nblue",
      "Red, green and blue.", "cyan\nmagenta\nyellow", near="red\nyellow\nblue"),
    Q("Give the chemical formula of table salt and of water, one per line.", "NaCl\nH2O",
      "Table salt is NaCl; water is H2O.", "KCl\nH2O2", near="NaCl2\nH2O", strict=True),

    # --- history ---
    Q("In what year did the Berlin Wall fall?", "1989",
      "The Berlin Wall fell on 9 November 1989.", "1991", near="1988"),
    Q("Who was the first person to walk on the Moon?", "Neil Armstrong",
      "Neil Armstrong stepped onto the Moon on 20 July 1969.", "Buzz Aldrin",
      near="Louis Armstrong"),
    Q("In which year did the Second World War end?", "1945",
      "The war ended in 1945, with Japan's surrender in September.", "1918", near="1944"),
    Q("Who wrote the first draft of the Declaration of Independence?", "Thomas Jefferson",
      "The first draft was written by Thomas Jefferson.", "Benjamin Franklin",
      near="Thomas Paine"),
    Q("Which empire built Machu Picchu?", "The Inca Empire",
      "Machu Picchu was built by the Inca in the 15th century.", "The Maya",
      near="The Aztec Empire"),
    Q("Who was the first woman to win a Nobel Prize?", "Marie Curie",
      "Marie Skłodowska-Curie, who shared the 1903 prize in physics.", "Rosalind Franklin",
      near="Pierre Curie"),
    Q("In which place was the Treaty of Versailles signed?", "Versailles",
      "It was signed in the Hall of Mirrors at the Palace of Versailles, near Paris.", "Paris"),
    Q("In what year did the Titanic sink?", "1912",
      "The Titanic sank on 15 April 1912.", "1915", near="1921"),
    Q("Who was the first Roman emperor?", "Augustus",
      "Augustus, born Octavian, became the first Roman emperor in 27 BC.", "Julius Caesar",
      near="Augustine"),
    Q("Which civilisation invented cuneiform writing?", "The Sumerians",
      "Cuneiform was developed by the Sumerians in Mesopotamia.", "The Egyptians",
      near="The Assyrians"),
    Q("Who painted the ceiling of the Sistine Chapel?", "Michelangelo",
      "Michelangelo painted it between 1508 and 1512.", "Leonardo da Vinci"),
    Q("What was the name of the ship that carried the Pilgrims to America in 1620?",
      "The Mayflower", "The Pilgrims crossed on the Mayflower.", "The Santa María"),
    Q("Did Napoleon Bonaparte die on Saint Helena?",
      "Yes, Napoleon died in exile on Saint Helena in 1821.",
      "Yes. He died on the island of Saint Helena in May 1821.",
      "No, he died on Elba.",
      neg="No, Napoleon did not die in exile on Saint Helena in 1821."),
    Q("Which country gave the Statue of Liberty to the United States?", "France",
      "The statue was a gift from the people of France, dedicated in 1886.", "England"),
    Q("Who was the British prime minister for most of the Second World War?",
      "Winston Churchill", "Winston Churchill led Britain from 1940 to 1945.",
      "Neville Chamberlain"),
    Q("In which year did Christopher Columbus first reach the Americas?", "1492",
      "Columbus made landfall in the Bahamas in October 1492.", "1500", near="1429"),
    Q("What was the capital of the Byzantine Empire?", "Constantinople",
      "Constantinople, today's Istanbul.", "Rome", near="Constantine"),
    Q("Which of the Seven Wonders of the Ancient World stood in Alexandria?",
      "The Lighthouse of Alexandria",
      "The Pharos, the great lighthouse of Alexandria.", "The Colossus of Rhodes",
      near="The Library of Alexandria"),
    Q("Who was the first President of the United States?", "George Washington",
      "George Washington, who took office in 1789.", "John Adams",
      near="George Washington Carver"),
    Q("In what year did the French Revolution begin?", "1789",
      "It began in 1789 with the storming of the Bastille.", "1848", near="1799"),
    Q("Who discovered penicillin?", "Alexander Fleming",
      "Penicillin was discovered by Alexander Fleming in 1928.", "Louis Pasteur",
      near="Alexander Graham Bell"),
    Q("Which dynasty built most of the Great Wall of China that stands today?",
      "The Ming dynasty",
      "Most of the surviving wall dates from the Ming dynasty (1368–1644).", "The Han dynasty",
      near="The Qin dynasty"),
    Q('Who wrote "Pride and Prejudice"?', "Jane Austen",
      "It was written by Jane Austen and published in 1813.", "Charlotte Brontë",
      near="Jane Eyre"),
    Q("What did Magna Carta, sealed in 1215, chiefly limit?", "The power of the English king",
      "It limited the king's power, putting the monarch under the law.", "Trade with France",
      near="The power of the English Church"),
    Q("Did the Great Fire of London happen in 1666?",
      "Yes, the Great Fire of London was in 1666.",
      "Yes. It broke out in September 1666 in a bakery on Pudding Lane.",
      "No, it was in 1566.",
      neg="No, the Great Fire of London was not in 1666."),
    Q("Who led the first expedition to sail around the world?",
      "Ferdinand Magellan, though he died on the way and Juan Sebastián Elcano completed it",
      "Magellan's expedition (1519–1522) was the first. After Magellan was killed in the "
      "Philippines, Elcano brought the ship Victoria home to Spain.",
      "Francis Drake", near="Vasco da Gama"),
    Q("What was the name of the first artificial satellite?", "Sputnik 1",
      "The Soviet Union launched Sputnik 1 on 4 October 1957.", "Apollo 11",
      near="Explorer 1"),
    Q("Which Egyptian queen allied with Mark Antony?", "Cleopatra VII",
      "Cleopatra, the last active ruler of Ptolemaic Egypt.", "Nefertiti",
      near="Cleopatra VI"),
    Q("Who introduced movable-type printing to Europe?", "Johannes Gutenberg",
      "Johannes Gutenberg, in Mainz, around 1440.", "William Caxton"),
    Q("In which year was the Soviet Union dissolved?", "1991",
      "The USSR was dissolved in December 1991.", "1989", near="1990"),

    # --- programming ---
    Q("What does `len([1, 2, 3])` return in Python?", "3",
      "It returns 3, the number of elements in the list.", "6", near="2"),
    Q('Which HTTP status code means "Not Found"?', "404",
      "HTTP 404 Not Found.", "500", near="403"),
    Q("What does SQL stand for?", "Structured Query Language",
      "SQL stands for Structured Query Language.", "Sequential Question Logic",
      near="Simple Query Language"),
    Q("Which keyword defines a function in Python?", "def",
      "Use the def keyword, as in def f(): ...", "function", near="define", strict=True),
    Q('What is Python\'s value for "no value"?', "None",
      "Python uses None, the single instance of NoneType.", "null", near="none", strict=True),
    Q('What does `print("a, b")` output in Python?', "a, b",
      "It prints a, b followed by a newline.", "a b", near='"a, b"', strict=True),
    Q("Which Git command creates a new branch and switches to it?", "git switch -c <name>",
      "git checkout -b <name>", "git merge <name>", near="git branch <name>", strict=True),
    Q("What is the time complexity of binary search on a sorted array?", "O(log n)",
      "Binary search runs in logarithmic time, O(log n).", "O(n)", near="O(n log n)"),
    Q("Which data structure gives first-in, first-out order?", "A queue",
      "A queue is FIFO: items leave in the order they arrived.", "A hash map",
      near="A stack"),
    Q("What does `git clone` do?",
      "It copies an existing remote repository into a new local directory.",
      "git clone downloads a repository, with its full history, into a new folder on your "
      "machine.", "It creates a new, empty repository.",
      near="It copies an existing local directory into a new remote repository."),
    Q("How many bits are in a byte?", "8", "A byte is eight bits.", "16", near="4"),
    Q("What does Python print for `0.1 + 0.2`?", "0.30000000000000004",
      "Python prints 0.30000000000000004, because 0.1 and 0.2 are not exact in binary.",
      "0.3", near="0.3000000000000004"),
    Q("Which JavaScript operator tests equality without type coercion?", "===",
      "Use the strict equality operator, ===.", "=", near="=="),
    Q("What does JSON stand for?", "JavaScript Object Notation",
      "JSON means JavaScript Object Notation.", "Joint Syntax Open Network",
      near="Java Serialized Object Notation"),
    Q("What is the default TCP port for HTTPS?", "443",
      "HTTPS uses port 443 by default.", "80", near="8443"),
    Q("In Python, what is the result of `7 // 2`?", "3",
      "Floor division gives 3.", "14", near="3.5"),
    Q("Which Git command shows the commit history?", "git log",
      "Run git log to see the history.", "git status", near="git show", strict=True),
    Q("What does CSS stand for?", "Cascading Style Sheets",
      "CSS stands for Cascading Style Sheets.", "Computer Style Syntax",
      near="Cascading Script Sheets"),
    Q("Write a Python list comprehension that squares each number in `nums`.",
      "[n * n for n in nums]", "[x**2 for x in nums]", "map(nums, square)",
      near="[n * n for n in num]", strict=True),
    Q("What does the `-r` flag do in `rm -r`?",
      "It removes directories and their contents recursively.",
      "It makes rm recurse into directories, deleting everything inside them.",
      "It asks for confirmation before each file."),
    Q("What does this Python code print?\nfor i in range(3):\n    print(i)", "0\n1\n2",
      "It prints 0, 1 and 2, each on its own line.", "1\n2\n3", near="0\n1\n2\n3"),
    Q("Which SQL clause filters groups after aggregation?", "HAVING",
      "The HAVING clause filters groups after GROUP BY.", "WHERE"),
    Q("What is the name of Python's standard package installer?", "pip",
      "Python's standard package installer is pip.", "npm"),
    Q("What does API stand for?", "Application Programming Interface",
      "Application Program Interface (API).", "Advanced Program Integration"),
    Q("Which Unix command prints the current working directory?", "pwd",
      "Use pwd, short for print working directory.", "cd", near="ls", strict=True),
    Q("What is the worst-case time complexity of quicksort?", "O(n^2)",
      "Quicksort is O(n²) in the worst case and O(n log n) on average.", "O(n log n)",
      near="O(n^3)"),
    Q("In regular expressions, what does `\\d` match?", "A single digit, 0 through 9",
      "\\d matches one digit character, 0–9 (any Unicode decimal digit in Unicode mode).",
      "Any whitespace character", near="A single digit, 1 through 9"),
    Q("Which HTTP method is normally used to replace a resource in full?", "PUT",
      "PUT replaces the whole resource; PATCH changes part of it.", "GET", near="POST"),
    Q('What does `"abc"[::-1]` evaluate to in Python?', "'cba'",
      "It evaluates to the reversed string 'cba'.", "'abc'", near="'cb'", strict=True),
    Q("Which algorithm does CPython's `sorted()` use?", "Timsort",
      "CPython uses Timsort, a hybrid of merge sort and insertion sort.", "Quicksort",
      near="Mergesort"),
]

PREFIXES_SHORT = ["The answer is {x}.", "Answer: {x}", "{x}.", "It's {x}.", "**{x}**",
                  "{x} (hope that helps!)", "Final answer: {x}", "The correct answer is {x}."]
PREFIXES_LONG = ["Answer: {x}", "Sure! {x}", "**Answer:** {x}", "Here's the answer: {x}"]
REFUSALS = ["I'm not sure.", "I don't have enough information to answer that.", ""]

QA_WEIGHTS_A = dict(exact=17, case=8, ws=8, typo=6, prefix=15, para=12, wrong=14, near=11,
                    neg=5, hedge=4, refusal=2)
QA_WEIGHTS_B = dict(exact=40, case=5, ws=5, typo=3, prefix=6, para=8, wrong=8, near=5,
                    neg=3, hedge=1, refusal=1)


COMMON_NOUNS = {"Nitrogen", "Methane", "Diamond", "Evaporation", "Sodium", "Carbon dioxide",
                "Oxygen", "Propane", "Ethane", "Quartz", "Condensation", "Sublimation"}


def _lower_lead(x: str) -> str:
    """'The Amazon' -> 'the Amazon', 'Methane' -> 'methane' when it goes mid-sentence."""
    if x in COMMON_NOUNS:
        return x[0].lower() + x[1:]
    for art in ("The ", "A ", "An "):
        if x.startswith(art):
            return x[0].lower() + x[1:]
    return x


def case_slip(x: str, rng: random.Random) -> str | None:
    if not any(c.isalpha() for c in x):
        return None
    options = [x.lower()]
    if len(x.split()) <= 2 and x.isalpha():
        options.append(x.upper())  # "ALASKA", never a whole sentence in capitals
    if x[:1].islower():
        options.append(x[:1].upper() + x[1:])
    options = [o for o in options if o != x]
    return rng.choice(options) if options else None


def ws_slip(x: str, rng: random.Random) -> str:
    options = [x + "\n", x + "  ", "\t" + x, " " + x + "\n"]
    if " " in x:
        i = [k for k, c in enumerate(x) if c == " "]
        k = rng.choice(i)
        options += [x[:k] + "  " + x[k + 1:]] * 2
        options += [x[:k] + "\t" + x[k + 1:]]
    return rng.choice(options)


NEIGHBOURS = dict(zip("abcdefghijklmnopqrstuvwxyz", [
    "sq", "vn", "xv", "sf", "wr", "dg", "fh", "gj", "uo", "hk", "jl", "ko", "nk", "bm", "ip",
    "ol", "wa", "et", "ad", "ry", "yi", "cb", "qe", "zc", "tu", "xa"], strict=True))


def typo(x: str, rng: random.Random) -> str | None:
    words = [(k, w) for k, w in enumerate(x.split(" ")) if len(w) >= 4 and w.isalpha()]
    if not words:
        return None
    k, w = rng.choice(words)
    i = rng.randrange(1, len(w) - 1)
    op = rng.choice(["swap", "drop", "double", "neighbour"])
    if op == "swap" and w[i] != w[i + 1 if i + 1 < len(w) else i - 1]:
        j = i + 1 if i + 1 < len(w) else i - 1
        a, b = sorted((i, j))
        new = w[:a] + w[b] + w[a] + w[b + 1:]
    elif op == "drop":
        new = w[:i] + w[i + 1:]
    elif op == "double":
        new = w[:i] + w[i] + w[i:]
    else:
        c = w[i].lower()
        new = w[:i] + rng.choice(NEIGHBOURS.get(c, "e")) + w[i + 1:]
    if new == w:
        new = w[:i] + w[i + 1:]
    parts = x.split(" ")
    parts[k] = new
    return " ".join(parts)


def qa_output(item: dict, kind: str, rng: random.Random) -> tuple[str, bool] | None:
    """(text, a human would pass it) for one kind of answer, or None if it does not apply."""
    x = item["expected"]
    strict = item["strict"]
    if kind == "exact":
        return x, True
    if kind == "case":
        out = case_slip(x, rng)
        return None if out is None else (out, not strict)
    if kind == "ws":
        return ws_slip(x, rng), True
    if kind == "typo":
        out = typo(x, rng)
        return None if out is None else (out, not strict)
    if kind == "prefix":
        if "\n" in x:
            return "Here you go:\n" + x, True
        long = len(x.split()) > 5
        template = rng.choice(PREFIXES_LONG if long else PREFIXES_SHORT)
        body = x.rstrip(".")
        if template.startswith(("The answer is", "It's", "The correct")):
            body = _lower_lead(body)
        return template.format(x=body), True
    if kind == "para":
        return item["para"], True
    if kind == "wrong":
        return item["wrong"], False
    if kind == "near":
        return None if item["near"] is None else (item["near"], False)
    if kind == "neg":
        return None if item["neg"] is None else (item["neg"], False)
    if kind == "hedge":
        if "\n" in x or len(x.split()) > 4:
            return None
        wrong = _lower_lead(item["wrong"])
        return rng.choice([f"Either {_lower_lead(x)} or {wrong}.",
                           f"Probably {wrong}, possibly {_lower_lead(x)}.",
                           f"It could be {_lower_lead(x)}, but {wrong} is also possible."]), False
    if kind == "refusal":
        return rng.choice(REFUSALS), False
    raise ValueError(kind)


def draw(weights: dict, rng: random.Random) -> str:
    kinds = list(weights)
    return rng.choices(kinds, [weights[k] for k in kinds])[0]


def draw_output(weights, make, rng):
    for _ in range(50):
        got = make(draw(weights, rng))
        if got is not None:
            return got
    raise RuntimeError("no applicable kind")


def qa_rows(rng: random.Random) -> list[dict]:
    rows = []
    for n, item in enumerate(QA, 1):
        if item["fixed"]:
            a, b, label = item["fixed"]
        else:
            a, a_ok = draw_output(QA_WEIGHTS_A, lambda k, item=item: qa_output(item, k, rng), rng)
            b, _ = draw_output(QA_WEIGHTS_B, lambda k, item=item: qa_output(item, k, rng), rng)
            label = "pass" if a_ok else "fail"
        rows.append(dict(id=f"qa-{n:03d}", task="qa", question=item["question"],
                         expected=item["expected"], output_a=a, output_b=b, label=label,
                         _ref=item["expected"], _a=a, _b=b))
    return rows


# ---------------------------------------------------------------------------------------------
# Entity extraction: hand-written source texts, expected JSON, and JSON slips
# ---------------------------------------------------------------------------------------------

PEOPLE = [  # (name, born, field, source sentence)
    ("Ada Lovelace", 1815, "mathematics",
     "Ada Lovelace, born in London in 1815, is remembered for her notes on Charles Babbage's "
     "Analytical Engine, which include what is often called the first computer program."),
    ("Marie Curie", 1867, "physics",
     "Born in Warsaw in 1867, Marie Curie did pioneering research on radioactivity in physics "
     "and later won a second Nobel Prize, in chemistry."),
    ("Alan Turing", 1912, "computer science",
     "Alan Turing (1912–1954) laid the foundations of computer science with his 1936 paper on "
     "computable numbers."),
    ("Anders Jonas Ångström", 1814, "physics",
     "The Swedish physicist Anders Jonas Ångström, born in 1814, was one of the founders of "
     "spectroscopy; the unit Å is named after him."),
    ("Grace Hopper", 1906, "computer science",
     "Rear Admiral Grace Hopper, born 1906 in New York City, was a computer science pioneer "
     "whose work led to COBOL."),
    ("Srinivasa Ramanujan", 1887, "mathematics",
     "Srinivasa Ramanujan was born in Erode in 1887 and, largely self-taught in mathematics, "
     "filled notebooks with thousands of results."),
    ("Rosalind Franklin", 1920, "chemistry",
     "Rosalind Franklin (b. 1920) was a chemist whose X-ray images of DNA, above all \"Photo "
     "51\", were key to finding its structure."),
    ("Nikola Tesla", 1856, "electrical engineering",
     "Nikola Tesla, an electrical engineering inventor born in Smiljan in 1856, is best known "
     "for his work on alternating current."),
    ("Emmy Noether", 1882, "mathematics",
     "Emmy Noether, born in Erlangen in 1882, changed abstract algebra; Noether's theorem "
     "links symmetries to conservation laws. Her field: mathematics."),
    ("Katherine Johnson", 1918, "mathematics",
     "NASA mathematician Katherine Johnson, born in 1918 in West Virginia, calculated the "
     "trajectory for the first American crewed orbital flight."),
    ("Chien-Shiung Wu", 1912, "physics",
     "Chien-Shiung Wu, a physicist born in 1912, showed in 1956 that parity is not conserved "
     "in weak interactions."),
    ("Dmitri Mendeleev", 1834, "chemistry",
     "Dmitri Mendeleev, born 1834 in Tobolsk, arranged the chemical elements into the "
     "periodic table and predicted elements not yet found. Field: chemistry."),
    ("Gregor Mendel", 1822, "genetics",
     "Gregor Mendel (born 1822), an Augustinian friar, founded genetics with his experiments "
     "on pea plants."),
    ("Carl Linnaeus", 1707, "botany",
     "Carl Linnaeus, born in 1707 in Småland, Sweden, was a botanist who formalised binomial "
     "nomenclature."),
    ("Niels Bohr", 1885, "physics",
     "Niels Bohr, the Danish physicist born in Copenhagen in 1885, proposed the Bohr model of "
     "the atom."),
    ("Lise Meitner", 1878, "physics",
     "Lise Meitner, born in Vienna in 1878, was a physicist who, with Otto Frisch, explained "
     "nuclear fission."),
    ("Charles Babbage", 1791, "mathematics",
     "Charles Babbage, a mathematician born in 1791, designed the Difference Engine and the "
     "Analytical Engine."),
    ("Barbara McClintock", 1902, "genetics",
     "Barbara McClintock, born in Hartford in 1902, discovered transposons (\"jumping "
     "genes\") and won the 1983 Nobel Prize for her work in genetics."),
    ("Dorothy Hodgkin", 1910, "chemistry",
     "Dorothy Hodgkin, born in Cairo in 1910, used X-ray crystallography to determine the "
     "structures of penicillin, vitamin B12 and insulin. Field: chemistry."),
    ("Santiago Ramón y Cajal", 1852, "neuroscience",
     "Santiago Ramón y Cajal (1852–1934) is often called the father of modern neuroscience "
     "for his drawings of neurons."),
    ("Sofia Kovalevskaya", 1850, "mathematics",
     "Sofia Kovalevskaya, born in Moscow in 1850, was the first woman to earn a doctorate in "
     "mathematics in modern Europe."),
    ("Ibn al-Haytham", 965, "optics",
     "Ibn al-Haytham, born around 965 in Basra, wrote the Book of Optics and is known as a "
     "founder of optics."),
]

CATALOGUE = [  # (item name, unit price)
    ("Ceramic mug", 12.5), ("Teapot", 34.0), ("Notebook, A5 dotted", 6.95),
    ("Fountain pen", 28.0), ("USB-C cable, 2 m", 9.99), ("Desk lamp", 45.0),
    ("Wool socks", 8.5), ("Yoga mat", 29.9), ("Espresso beans, 1 kg", 24.0),
    ("Water bottle", 15.0), ("Phone stand", 11.25), ("Linen napkins, set of 4", 18.0),
    ("Cast-iron pan", 39.0), ("Bamboo cutting board", 21.5), ("Scented candle", 13.0),
    ("Wireless mouse", 19.99),
]
CUSTOMERS = ["Zoë Martin", "José Álvarez", "Priya Natarajan", "Liam O'Connor", "Åsa Lindqvist",
             "Chloé Dubois", "Mateus Conceição", "Hannah Becker", "Kwame Mensah", "Mei Ling Tan",
             "Oskar Nowak", "Fatima Al-Sayed", "Jürgen Weiß", "Nora Haddad", "Sam Whitfield",
             "Aiko Tanaka", "Björn Eriksson", "Lucía Fernández", "Tomás Ó Briain",
             "Grace Okafor", "Dmitri Volkov", 'Isabel "Izzy" Moreno']
CURRENCY_SIGN = {"EUR": "€", "GBP": "£", "USD": "$"}

ORDER_TEMPLATES = [
    "Hi,\nthis is {customer}, about order {order_id}. I bought {items}. {paid_sentence}\n"
    "Thanks!",
    "Order {order_id}: {items}. Customer: {customer}. {paid_sentence}",
    "Hello support,\n\nMy order ({order_id}) has {items}. {paid_sentence}\n\nBest,\n{customer}",
    "{customer} wrote: \"Can you check order {order_id}? It was {items}. {paid_sentence}\"",
]
PAID_SENTENCES = {True: ["I already paid by card.", "Payment went through yesterday.",
                         "It's paid."],
                  False: ["I haven't paid yet; please send an invoice.",
                          "Payment is still pending.", "I'll pay on delivery."]}

EVENT_TITLES = ["Quarterly budget review", "Sprint planning", "Design critique",
                "Customer onboarding call", "Security incident post-mortem", "Team offsite",
                "Hiring committee", "Data platform sync", "Release go/no-go",
                "Board pre-read walkthrough", "Accessibility audit kickoff", "Lunch & learn: Rust"]
LOCATIONS = ["São Paulo office, room 4.12", "Berlin HQ, Spree room", "Video call",
             "Café Zoë, Rue des Martyrs", "Lisbon office", "Video call",
             "Main library, 2nd floor", "Malmö studio"]
PEOPLE_FIRST = ["Ana", "Bruno", "Chen", "Dana", "Élodie", "Farid", "Greta", "Hiro", "Ines",
                "Jonas", "Kavya", "Luca", "Maëlle", "Nils", "Omar", "Pia"]

PRODUCTS = [  # (product, brand, price, currency, in_stock, tags, listing text)
    ("Trail 2 hiking boots", "Fjellgear", 129.0, "EUR", True, ["waterproof", "leather"],
     "Fjellgear Trail 2 hiking boots, waterproof leather, €129.00. In stock, ships in 2 days."),
    ("AeroPress Go", "AeroPress", 39.95, "USD", True, ["coffee", "travel"],
     "The AeroPress Go travel coffee maker by AeroPress is $39.95 and available now."),
    ("Kindle Paperwhite", "Amazon", 149.99, "GBP", False, ["e-reader"],
     "Kindle Paperwhite (Amazon), £149.99. Currently out of stock. Category: e-reader."),
    ("Moka pot, 6 cups", "Bialetti", 32.5, "EUR", True, ["coffee", "stovetop"],
     "Bialetti's 6-cup moka pot for the stovetop: €32.50, in stock. Great for coffee."),
    ("Noise-cancelling headphones WH-4", "Sonora", 249.0, "USD", True,
     ["audio", "wireless", "bluetooth"],
     "Sonora WH-4 noise-cancelling headphones (wireless, Bluetooth audio) cost $249 and are "
     "in stock."),
    ("Linen shirt", "Ålund", 59.0, "EUR", False, ["clothing", "summer"],
     "Ålund linen shirt for summer, €59. Sold out; back in June. Clothing."),
    ("Mechanical keyboard K87", "Tactile Labs", 119.0, "USD", True,
     ["keyboard", "hot-swap"],
     "Tactile Labs K87 mechanical keyboard, hot-swap switches, $119.00; 14 left."),
    ("Cast-iron Dutch oven, 5.5 qt", "Le Creuset", 365.0, "USD", True, ["cookware"],
     "Le Creuset 5.5 qt cast-iron Dutch oven: $365. In stock. Cookware."),
    ("Rain jacket", "Nordvik", 89.9, "EUR", True, ["waterproof", "outdoor"],
     "Nordvik rain jacket, waterproof, for outdoor use. €89.90, available."),
    ("Desk lamp \"Halo\"", "Lumière & Co", 74.0, "EUR", False, ["lighting", "LED"],
     "The Lumière & Co desk lamp \"Halo\" (LED lighting) is €74 but out of stock."),
    ("Running socks, 3 pairs", "Stride", 18.0, "GBP", True, ["running", "clothing"],
     "Stride running socks, pack of 3 pairs, £18. In stock. Clothing / running."),
    ("Chef's knife, 20 cm", "Kōbō", 95.0, "EUR", True, ["kitchen", "steel"],
     "Kōbō chef's knife, 20 cm, high-carbon steel, €95. In stock. Kitchen."),
    ("Smart thermostat T3", "Heatwise", 199.0, "GBP", False, ["smart home"],
     "Heatwise T3 smart thermostat for the smart home: £199, pre-order only (not in stock)."),
    ("Notebook, A5 dotted", "Papeterie Zoë", 6.95, "EUR", True, ["stationery"],
     "Papeterie Zoë A5 dotted notebook, €6.95, in stock. Stationery."),
    ("Water bottle, 750 ml", "Klar", 15.0, "EUR", True, ["outdoor", "steel"],
     "Klar 750 ml steel water bottle, €15, in stock; good for outdoor trips."),
    ("Portable SSD 1 TB", "Datavault", 89.99, "USD", True, ["storage", "USB-C"],
     "Datavault portable SSD, 1 TB, USB-C storage, $89.99, in stock."),
    ("Yoga mat, 6 mm", "Asana", 29.9, "EUR", False, ["fitness"],
     "Asana 6 mm yoga mat, €29.90. Out of stock. Fitness."),
    ("Wireless mouse M2", "Clickr", 19.99, "USD", True, ["wireless", "office"],
     "Clickr M2 wireless mouse for the office, $19.99, in stock."),
]

EXTRA_KEYS = [("confidence", 0.93), ("source", "email"), ("notes", ""), ("language", "en")]


def money(value: float, currency: str) -> str:
    return f"{CURRENCY_SIGN[currency]}{value:,.2f}"


def person_records() -> list[tuple[str, dict]]:
    out = []
    for name, born, field, text in PEOPLE:
        q = ('Extract {"name", "born", "field"} as JSON (born: the year, as a number) '
             "from:\n" + text)
        out.append((q, {"name": name, "born": born, "field": field}))
    return out


def order_records(rng: random.Random) -> list[tuple[str, dict]]:
    out = []
    for n, customer in enumerate(CUSTOMERS):
        currency = rng.choice(["EUR", "EUR", "GBP", "USD"])
        picks = rng.sample(CATALOGUE, rng.choice([1, 2, 2, 3]))
        items = [{"name": nm, "price": price, "quantity": rng.choice([1, 1, 2, 3, 4])}
                 for nm, price in picks]
        total = round(sum(i["price"] * i["quantity"] for i in items), 2)
        paid = rng.random() < 0.65
        order_id = f"{rng.choice('ABCK')}-{1000 + rng.randrange(9000)}"
        phrases = [f"{i['quantity']} × {i['name']} ({money(i['price'], currency)}"
                   f"{' each' if i['quantity'] > 1 else ''})" for i in items]
        listed = phrases[0] if len(phrases) == 1 else ", ".join(phrases[:-1]) + " and " + \
            phrases[-1]
        text = ORDER_TEMPLATES[n % len(ORDER_TEMPLATES)].format(
            customer=customer, order_id=order_id, items=listed,
            paid_sentence=rng.choice(PAID_SENTENCES[paid]))
        q = ('Extract the order as JSON {"order_id", "customer", "currency", "items": [{"name", '
             '"price", "quantity"}], "total", "paid"} from this message:\n' + text)
        out.append((q, {"order_id": order_id, "customer": customer, "currency": currency,
                        "items": items, "total": total, "paid": paid}))
    return out


def event_records(rng: random.Random, count: int) -> list[tuple[str, dict]]:
    out = []
    start = dt.date(2024, 5, 6)
    for n in range(count):
        day = start + dt.timedelta(days=rng.randrange(0, 120))
        while day.weekday() >= 5:  # nobody books the sprint planning on a Sunday
            day += dt.timedelta(days=1)
        hour, minute = rng.choice([9, 10, 11, 13, 14, 15, 16]), rng.choice([0, 0, 15, 30])
        title = EVENT_TITLES[n % len(EVENT_TITLES)]
        location = rng.choice(LOCATIONS)
        attendees = rng.sample(PEOPLE_FIRST, rng.choice([2, 3, 3, 4]))
        online = location == "Video call"
        who = ", ".join(attendees[:-1]) + " and " + attendees[-1]
        when = f"{day:%A} {day.day} {day:%B %Y} at {hour}:{minute:02d}"
        where = "on a video call" if online else f"in the {location}"
        text = rng.choice([
            f"Can we hold the {title.lower()} on {when}, {where}? Please invite {who}.",
            f"Invitation: {title}\nWhen: {when}\nWhere: {location}\nGuests: {who}",
            f"Reminder: \"{title}\" is {when} {where}. {who} are attending.",
        ])
        q = ('Extract the meeting as JSON {"title", "date" (YYYY-MM-DD), "time" (HH:MM, '
             '24-hour), "location", "attendees": [...], "online"} from:\n' + text)
        out.append((q, {"title": title, "date": day.isoformat(),
                        "time": f"{hour:02d}:{minute:02d}", "location": location,
                        "attendees": attendees, "online": online}))
    return out


def product_records() -> list[tuple[str, dict]]:
    out = []
    for product, brand, price, currency, in_stock, tags, text in PRODUCTS:
        q = ('Extract the listing as JSON {"product", "brand", "price", "currency" (ISO 4217), '
             '"in_stock", "tags": [...]} from:\n' + text)
        out.append((q, {"product": product, "brand": brand, "price": price,
                        "currency": currency, "in_stock": in_stock, "tags": tags}))
    return out


def compact(obj, ascii_only=False) -> str:
    return json.dumps(obj, ensure_ascii=ascii_only)


def pretty(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=2)


def leaves(obj, path=()):
    """Every (path, value) for scalar leaves."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from leaves(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from leaves(v, path + (i,))
    else:
        yield path, obj


def set_at(obj, path, value):
    for step in path[:-1]:
        obj = obj[step]
    obj[path[-1]] = value


def delete_at(obj, path):
    for step in path[:-1]:
        obj = obj[step]
    del obj[path[-1]]


def deepcopy(obj):
    return json.loads(json.dumps(obj))


def pool_key(path) -> tuple:
    """Where a string value sits, ignoring list indexes: ('items', 'name')."""
    return tuple(p for p in path if isinstance(p, str))


def wrong_value(path, value, pool, rng):
    """A plausible wrong value for one leaf: a misread number, a neighbouring date, or a value
    of the same key from another record."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.choice([-1, 1, 10]) if value > 12 else value + 1
    if isinstance(value, float):
        return rng.choice([round(value * 10, 2), round(value + 1, 2), round(value - 0.5, 2)])
    key = next((p for p in reversed(path) if isinstance(p, str)), None)
    if key == "date":
        d = dt.date.fromisoformat(value) + dt.timedelta(days=rng.choice([-1, 1, 7]))
        return d.isoformat()
    if key == "time":
        return rng.choice([value[:3] + "00", f"{(int(value[:2]) + 1) % 24:02d}{value[2:]}"])
    if key in ("name", "customer") and path[0] in ("name", "customer"):
        words = value.split(" ")
        if len(words) >= 3:  # a dropped middle word: "Anders Ångström"
            return " ".join(words[:1] + words[2:])
        last = words[-1]  # a misspelt surname: "Jonson", "Mensha"
        i = rng.randrange(1, len(last) - 1)
        return " ".join(words[:-1] + [last[:i] + last[i + 1:]])
    candidates = sorted(v for v in pool.get(pool_key(path), ()) if v != value)
    if candidates:
        return rng.choice(candidates)
    return value[:-1] if len(value) > 3 else value + "s"


EX_WEIGHTS_A = dict(exact=14, pretty=8, int_float=6, case_string=4, extra_key=5, fenced=10,
                    escaped=3, deep_wrong=12, top_wrong=6, missing_key=8, bool_string=5,
                    prose=5, truncated=4, single_quotes=5, trailing_comma=4, fenced_wrong=3)
EX_WEIGHTS_B = dict(exact=38, pretty=10, int_float=6, case_string=3, extra_key=3, fenced=5,
                    escaped=2, deep_wrong=8, top_wrong=3, missing_key=4, bool_string=2,
                    prose=1, truncated=2, single_quotes=1, trailing_comma=1, fenced_wrong=2)
EX_PASS = {"exact", "pretty", "int_float", "case_string", "extra_key", "fenced", "escaped"}


def fence(text: str) -> str:
    return "```json\n" + text + "\n```"


def ex_output(obj: dict, kind: str, pool: dict, rng: random.Random) -> tuple[str, bool] | None:
    ok = kind in EX_PASS
    scalar = list(leaves(obj))
    if kind == "exact":
        return compact(obj), ok
    if kind == "pretty":
        return pretty(obj), ok
    if kind == "escaped":
        text = compact(obj, ascii_only=True)
        return (None if text == compact(obj) else (text, ok))
    if kind == "fenced":
        return fence(pretty(obj) if rng.random() < 0.7 else compact(obj)), ok
    if kind == "int_float":
        nums = [(p, v) for p, v in scalar
                if isinstance(v, (int, float)) and not isinstance(v, bool)
                and float(v).is_integer()]
        if not nums:
            return None
        p, v = rng.choice(nums)
        out = deepcopy(obj)
        set_at(out, p, int(v) if isinstance(v, float) else float(v))
        return compact(out), ok
    if kind == "case_string":
        strs = [(p, v) for p, v in scalar if isinstance(v, str) and v.lower() != v.upper()
                and p[-1] not in ("currency", "order_id", "date", "time")]
        if not strs:
            return None
        p, v = rng.choice(strs)
        new = v.capitalize() if v[:1].islower() else v.lower()
        if new == v:
            new = v.upper()
        out = deepcopy(obj)
        set_at(out, p, new)
        return compact(out), ok
    if kind == "extra_key":
        out = deepcopy(obj)
        k, v = rng.choice(EXTRA_KEYS)
        out[k] = v
        return compact(out), ok
    if kind in ("deep_wrong", "top_wrong", "fenced_wrong"):
        deep = [(p, v) for p, v in scalar if len(p) > 1]
        top = [(p, v) for p, v in scalar if len(p) == 1]
        choices = deep if kind != "top_wrong" and deep else top
        if kind == "deep_wrong" and not deep:
            return None
        p, v = rng.choice(choices)
        out = deepcopy(obj)
        set_at(out, p, wrong_value(p, v, pool, rng))
        text = compact(out)
        return (fence(pretty(out)) if kind == "fenced_wrong" else text), ok
    if kind == "missing_key":
        out = deepcopy(obj)
        nested = [(p, v) for p, v in scalar if len(p) == 3 and isinstance(p[1], int)]
        if nested and rng.random() < 0.4:
            p, _ = rng.choice(nested)
        else:
            p = (rng.choice(list(out)),)
        delete_at(out, p)
        return compact(out), ok
    if kind == "bool_string":
        bools = [(p, v) for p, v in scalar if isinstance(v, bool)]
        nums = [(p, v) for p, v in scalar
                if isinstance(v, (int, float)) and not isinstance(v, bool)]
        out = deepcopy(obj)
        if bools:
            p, v = rng.choice(bools)
            set_at(out, p, "true" if v else "false")
        elif nums:
            p, v = rng.choice(nums)
            set_at(out, p, str(v))
        else:
            return None
        return compact(out), ok
    if kind == "prose":
        lead = rng.choice(["Here is the extracted data:\n", "Sure! Here's the JSON:\n\n",
                           "Extracted:\n"])
        return lead + pretty(obj), ok
    if kind == "truncated":
        text = pretty(obj) if rng.random() < 0.5 else compact(obj)
        cut = rng.randrange(int(len(text) * 0.55), int(len(text) * 0.9))
        return text[:cut], ok
    if kind == "single_quotes":
        return repr(obj), ok  # a Python dict: single quotes, True/False
    if kind == "trailing_comma":
        text = pretty(obj)
        head, _, tail = text.rpartition("\n}")
        return head + ",\n}" + tail, ok
    raise ValueError(kind)


def ex_rows(rng: random.Random) -> list[dict]:
    records = (person_records() + order_records(rng) + event_records(rng, 18) +
               product_records())
    pool: dict[str, set] = {}
    for _, obj in records:
        for p, v in leaves(obj):
            if isinstance(v, str):
                pool.setdefault(pool_key(p), set()).add(v)
    rows = []
    for n, (question, obj) in enumerate(records, 1):
        a, a_ok = draw_output(EX_WEIGHTS_A, lambda k, obj=obj: ex_output(obj, k, pool, rng), rng)
        b, _ = draw_output(EX_WEIGHTS_B, lambda k, obj=obj: ex_output(obj, k, pool, rng), rng)
        rows.append(dict(id=f"ex-{n:03d}", task="extraction", question=question,
                         expected=compact(obj), output_a=a, output_b=b,
                         label="pass" if a_ok else "fail",
                         _ref=obj, _a=as_json_or_text(a), _b=as_json_or_text(b)))
    return rows


def as_json_or_text(text: str):
    """The parsed object when the model's text is valid JSON as it stands, else the raw text."""
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return value if isinstance(value, (dict, list)) else text


def main() -> None:
    rng = random.Random(SEED)
    rows = qa_rows(rng) + ex_rows(rng)
    with CSV_PATH.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    with JSONL_PATH.open("w", encoding="utf-8", newline="\n") as handle:
        for row in rows:
            record = {"id": row["id"], "task": row["task"], "question": row["question"],
                      "reference": {"answer": row["_ref"]},
                      "output_a": {"answer": row["_a"]},
                      "output_b": {"answer": row["_b"]},
                      "label": row["label"]}
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    qa = sum(r["task"] == "qa" for r in rows)
    print(f"wrote {len(rows)} rows ({qa} qa, {len(rows) - qa} extraction) to {CSV_PATH.name} "
          f"and {JSONL_PATH.name}")


if __name__ == "__main__":
    main()
