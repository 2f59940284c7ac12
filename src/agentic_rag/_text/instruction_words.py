"""The word lists of the kinds of cue words (see :mod:`agentic_rag._text.instruction_lexicon`).

One entry string per kind, entries separated by white space and grouped by language: a word, a
word beginning (ending in ``*``), a phrase of words joined by ``_`` (its last word may end in
``*``), or a run of a script written without spaces (matched as a substring; ``_`` in it stands
for a space or nothing).
"""

from __future__ import annotations

__all__ = ["KINDS"]

KINDS: dict[str, str] = {
    # Dropping or no longer obeying something.
    "override-verb": """
        ignore ignoring disregard forget discard drop skip wipe erase abandon cancel override overrule bypass
        set_aside put_aside stop_following stop_obeying quit_following no_longer_follow no_longer_obey do_not_follow don't_follow
        never_follow do_not_obey pay_no_attention
        ignor* oubli* ne_suis_plus ne_suivez_plus ne_tiens_plus ne_tenez_plus ne_tiens_pas_compte ne_tenez_pas_compte fais_abstraction
        faites_abstraction néglige négligez contourne*
        vergiss* vergessen befolge missacht* verwirf verwerfe übergehe umgehe beachte_nicht befolge_nicht setze_außer_kraft
        olvid* deja_de_seguir no_sigas descarta descarte omite pasa_por_alto haz_caso_omiso no_hagas_caso deja_de_lado
        dimentic* non_seguire_più non_seguire scarta tralascia trascura non_tenere_conto lascia_perdere
        esqueç* esquece desconsider* pare_de_seguir deixe_de_lado não_siga deixa_de_seguir
        negeer vergeet verwerp laat_varen sla_over omzeil volg_niet niet_meer_volgen
        zignoruj zapomnij przestań pomiń porzuć odrzuć nie_stosuj_się nie_przestrzegaj
        zapomeň* přestaň pomiň zahoď nedbej nedodržuj neřiď_se zabudni prestaň vynechaj nedodržiavaj neriaď_sa
        glöm strunta_i bortse_från åsidosätt sluta_följa följ_inte glem se_bort_fra overse ikke_følg tilsidesæt følg_ikke
        älä_välitä älkää_välittäkö unohda unohtakaa ohita sivuuta jätä_huomiotta älä_noudata lakkaa_noudattamasta
        hagyd_figyelmen_kívül hagyja_figyelmen_kívül figyelmen_kívül felejtsd_el felejtse_el ne_kövesd ne_vedd_figyelembe írd_felül
        ignoră uită uitați nu_mai_urma nu_ține_cont nu_lua_în_seamă renunță_la treci_peste
        unut* yok_say yoksay* görmezden_gel* dikkate_alma boş_ver uyma
        αγνόησ* αγνοήστε αγνοείστε ξέχασ* ξεχάστε παράβλεψε παραβλέψτε μην_ακολουθείς μην_ακολουθήσεις παράκαμψε
        игнорир* проигнорир* забуд* не_следуй не_следуйте не_обращай_внимания не_обращайте_внимания отбрось отбросьте пренебреги
        перестань_следовать забей_на
        ігнор* проігноруй забудь забудьте не_зважай не_зважайте відкинь не_виконуй не_дотримуйся
        игнорирай игнорирайте забрави забравете пренебрегни не_обръщай_внимание не_следвай
        zanemari zanemarite занемари занемарите zaboravi zaboravite заборави заборавите ignoriši игнориши ne_slijedi ne_prati не_прати
        prezri prezrite pozabi pozabite ne_upoštevaj ne_sledi
        nekreipk_dėmesio nekreipkite_dėmesio pamiršk pamirškite nepaisyk nesilaikyk neņem_vērā neņemiet_vērā aizmirsti aizmirstiet
        neievēro unusta unustage eira eirake ära_järgi ärge_järgige jäta_kõrvale
        hunsaðu hunsið gleymdu gleymið virtu_að_vettugi
        התעלם התעלמי התעלמו שכח שכחי שכחו אל_תציית אל_תתייחס تجاهل تجاهلي تجاهلوا انس أهمل لا_تتبع لا_تلتزم
        نادیده_بگیر* نادیده فراموش_کن* توجه_نکن* پیروی_نکن* نظر_انداز نظرانداز بھول_جاؤ بھول_جائیں
        अनदेखा भूल नज़रअंदाज़ नजरअंदाज ध्यान_न_दें पालन_न_करें উপেক্ষা ভুলে_যাও ভুলে_যান অগ্রাহ্য
        bỏ_qua quên phớt_lờ lờ_đi gạt_bỏ đừng_làm_theo đừng_tuân_theo không_tuân_theo
        abaikan lupakan hiraukan jangan_ikuti jangan_patuhi balewalain huwag_pansinin kalimutan huwag_sundin
        puuza puuzeni sahau sahauni usifuate msifuate oblida oblideu no_facis_cas no_segueixis
        忽略 无视 忘记 忘掉 不要再遵循 不再遵循 忽視 不要理会 不要理會 不必遵守 不要遵守 抛开 拋開 绕过 繞過
        無視 忘れ 従うのをやめ 従わない 従うな 気にしない 무시 잊 따르지_마 따르지_말 신경_쓰지 เพิกเฉย ไม่ต้องสนใจ ไม่สนใจ ลืม อย่าทำตาม
    """,
    # A noun for what a model was told.
    "orders": """
        instruction instructions prompt prompts guidance guidelines directive directives directions
        consignes règles ordres anweisung anweisungen regeln vorgaben richtlinie* befehle instrucciones instrucción reglas
        indicaciones directrices pautas órdenes istruzioni istruzione regole direttive linee_guida instruções instrução
        orientações regras diretrizes instructies regels richtlijnen aanwijzingen instrukcj* polece* zasady wytyczne reguły
        pokyny instrukce pravidla inštrukcie pravidlá instruktioner* instruksjoner regler* riktlinjer anvisning* retningslinjer
        ohjeet ohjeita ohjeis* ohjeid* säännöt sääntöjä utasítás* szabály* irányelv* instrucțiuni* reguli regulile indicații
        talimat* kurallar* yönerge* instruksi aturan petunjuk perintah arahan panduan peraturan
        инструкци* указани* правил* директив* інструкці* вказівк* настанов* насоки насоките
        uputstva upute uputstvo упутства упутство instrukcije инструкције smjernice smernice смернице navodila navodil
        nurodym* instrukcij* taisykl* norādījum* noteikum* juhis* reeglid reegleid fyrirmæli leiðbeiningar* reglur
        οδηγίες οδηγιών κανόνες κανόνων εντολές εντολών הוראות ההוראות הנחיות ההנחיות כללים הכללים
        التعليمات تعليمات التوجيهات توجيهات الأوامر أوامر القواعد الإرشادات دستورالعمل* دستورات قوانین ہدایات ہدایت احکامات
        निर्देश* नियम आदेश दिशानिर्देश নির্দেশ* নিয়ম আদেশ hướng_dẫn chỉ_dẫn chỉ_thị quy_tắc mệnh_lệnh
        tagubilin panuto patakaran maagizo maelekezo instruccions regles directrius indicacions
        指令 指示 说明 规则 說明 規則 命令 提示词 提示詞 准则 準則 ルール ガイドライン プロンプト 지시 규칙 지침 명령 프롬프트 가이드라인
        คำสั่ง ข้อกำหนด แนวทาง
    """,
    # Placing it before, or giving it to the reader.
    "before": """
        previous prior earlier above preceding original initial so_far before_this you_were_given you_have_been_given
        you've_been_given you_received
        précédent* ci-dessus antérieur* plus_haut jusqu_ici jusqu_à_présent initiales originales
        vorherig* obig* bisherig* früher* vorangegangen* vorangehend* ursprünglich* zuvor bis_jetzt
        anterior* previa previas arriba previo previos anteriormente hasta_ahora iniciales
        precedent* sopra finora fino_ad_ora iniziali originali acima até_agora iniciais originais
        vorige eerdere bovenstaande voorgaande oorspronkelijke tot_nu_toe hierboven
        poprzedni* wcześniejsz* powyższ* dotychczasow* pierwotn* předchozí předešl* dosavadní původní
        predchádzajúc* predošl* doterajš* pôvodn* tidigare ovan föregående ursprungliga hittills ovenfor tidligere
        opprinnelige hittil oprindelige hidtil ovenstående
        aiemmat aiempi* aikaisemm* edellis* edellinen yllä_olevat alkuperäis* korábbi* előző* fenti eddigi
        de_mai_sus inițiale până_acum önceki yukarıdaki önceden daha_önce* şimdiye_kadar
        sebelumnya sebelum_ini terdahulu di_atas sejauh_ini setakat_ini
        προηγούμεν* παραπάνω αρχικ* μέχρι_τώρα
        предыдущ* прежн* выше ранее предшествующ* исходн* первоначальн* вышеуказанн* попередн* вище раніше початков* досі
        предишн* горните по_горе досегашн* първоначалн*
        prethodn* претходн* ranij* раниј* gore_navedene горе dosadašnj* досадашњ* izvorn* prejšnj* zgornj* predhodn* dosedanj*
        ankstesn* aukščiau iki_šiol iepriekšēj* augstāk_minēt* sākotnēj* līdz_šim
        varasemad varasem* eelnev* eelmis* ülaltoodud algsed senised fyrri hér_að_ofan hingað_til
        הקודמות הקודמים הקודם הקודמת קודמות המקוריות עד_כה לעיל
        السابقة السابق سابقة الأصلية الأولية أعلاه سابقا حتى_الآن قبلی پیشین تاکنون پچھلی پچھلے سابقہ گزشتہ اب_تک
        पिछले पिछली पिछला पहले_के ऊपर_दिए ऊपर_दी अब_तक আগের পূর্ববর্তী পূর্বের উপরের এখন_পর্যন্ত
        trước_đây trước_đó phía_trên ở_trên ban_đầu cho_đến_nay
        nakaraan nakaraang naunang nasa_itaas yaliyotangulia iliyotangulia zilizotangulia yaliyopita hapo_juu
        anteriors prèvies prèvia fins_ara inicials
        之前 以前 以上 上面 上述 先前 此前 原先 原始 初始 前面 迄今 前の 上記 これまで 以前の 元の 最初の 今までの
        이전 위의 앞서 기존 원래 지금까지 ก่อนหน้า ข้างต้น ด้านบน ที่ผ่านมา
    """,
    # Telling a reader what to say or write.
    "output-verb": """
        say tell answer reply respond output print write state mention claim describe recommend declare announce confirm insist
        report rate praise quote begin end start close sign include append prepend
        dis dites réponds répondez répondre annonce affirme écris écrivez indique déclare décris décrivez recommande recommandez
        mentionne mentionnez commence_par termine_par
        sag sage sagen antworte antworten schreib* erkläre behaupte beschreibe empfiehl erwähne nenne gib_aus beginne_mit
        diga responde responda contesta conteste escribe escriba afirma declara recomienda menciona empieza_con
        rispondi risponda scrivi afferma dichiara descrivi consiglia menziona inizia_con
        escreva afirme informe escreve descreva recomende mencione comece_com
        zeg antwoord schrijf beweer meld beschrijf noem vermeld begin_met
        powiedz odpowiedz napisz odpowiadaj opisz poleć wspomnij zacznij_od wypisz řekni odpověz napiš odpovídej popiš doporuč
        uveď povedz odpovedz napíš odpovedaj popíš odporuč
        säg svara skriv sig svar beskriv rekommendera nämn anbefal nevn nævn
        sano sanokaa vastaa vastatkaa kirjoita kirjoittakaa kerro kuvaile suosittele mainitse tulosta
        mondd mondja válaszolj válaszoljon írd írj írja írjon közöld ajánld említsd
        spune spuneți răspunde răspundeți scrie scrieți descrie recomandă menționează afirmă începe_cu
        söyle cevap yanıt cevap_ver* yanıtla* belirt açıkla öner bahset
        katakan jawab tulis sebutkan jawablah tuliskan jelaskan nyatakan terangkan cadangkan
        nói trả_lời viết hãy_nói hãy_trả_lời hãy_viết mô_tả đề_xuất đề_cập xuất_ra
        sema jibu andika semeni jibuni andikeni eleza pendekeza taja sabihin sumagot isulat sagutin ilarawan banggitin
        digues respon responeu escriu escriviu descriu recomana esmenta segðu svaraðu skrifaðu lýstu nefndu
        скажи скажите ответь ответьте отвечай напиши напишите сообщи заяви опиши опишите порекомендуй упомяни выведи начни_с
        відповідай відповідайте повідом напишіть скажіть згадай виведи
        кажи кажете отговори отговорете напишете препоръчай спомени изведи
        reci recite реци odgovori odgovorite одговори napiši napišite opiši preporuči препоручи navedi наведи
        povej priporoči pasakyk atsakyk atsakykite parašyk parašykite apibūdink rekomenduok paminėk
        saki sakiet atbildi atbildiet uzraksti uzrakstiet apraksti iesaki piemini ütle vasta vastake kirjuta kirjutage kirjelda
        soovita maini
        πες πείτε απάντησε απαντήστε γράψε γράψτε περίγραψε προτείνε ανέφερε δήλωσε
        אמור ענה כתוב תגיד תענה תכתוב ציין תאר המלץ قل أجب اكتب أجيبي قولي اكتبي صف اذكر أخبر
        بگو پاسخ بنویس پاسخ_بده جواب_بده توضیح_بده توصیف_کن توصیه_کن کہو کہیں بتاؤ بتائیں جواب_دو جواب_دیں لکھو لکھیں
        कहें कहो जवाब उत्तर लिखें लिखो बताओ बताएं बताइए जवाब_दें उत्तर_दें वर्णन_करें सुझाएं
        বলুন উত্তর লিখুন লেখো উত্তর_দাও উত্তর_দিন বর্ণনা_করুন
        พูด ตอบ บอก เขียน อธิบาย ระบุ 说 說 回答 回复 回覆 告诉 告訴 输出 輸出 写出 寫出 描述 声称 聲稱 回应 回應
        言って 答えて 伝えて 出力 書いて 述べて 回答して 返答して 説明して 勧めて 記載して 말하 답하 대답 출력 적어 설명해 추천해
        언급해 응답해 답변해
    """,
    # What a model produces.
    "answer-noun": """
        answer answers reply replies response responses summary summaries output outputs completion completions translation
        translations assessment assessments evaluation evaluations review reviews rating ratings recommendation
        recommendations verdict verdicts
        réponse* résumé résumés synthèse traduction* évaluation* avis recommandation*
        antwort* zusammenfassung* übersetzung* bewertung* beurteilung* empfehlung* urteil ausgabe
        respuesta* resumen resúmenes traducción traducciones evaluación evaluaciones valoración reseña* recomendación
        recomendaciones veredicto
        risposta risposte riassunto riassunti sintesi traduzione traduzioni valutazion* recensione recensioni raccomandazion*
        verdetto resposta* resumo resumos tradução traduções avaliação avaliações recomendação recomendações veredito parecer
        antwoord* samenvatting* vertaling* beoordeling* aanbeveling* oordeel uitvoer
        odpowied* podsumowani* streszczeni* tłumaczeni* rekomendacj* werdykt
        odpověď odpovědi shrnutí hodnocení doporučení verdikt výstup odpoveď odpovede zhrnutie preklad hodnotenie odporúčanie
        svar svaret svaren sammanfattning* översättning* bedömning* omdöme rekommendation* sammendrag* oversettelse*
        vurdering* anbefaling* resumé opsummering* oversættelse*
        vastau* yhteenveto* käännös* suositus* válasz* összefoglal* fordítás* értékelés* ajánlás*
        răspuns* rezumat* traducere* evaluare* recomandare* cevap* yanıt* özet* çeviri* değerlendirme* öneri*
        απάντησ* περίληψ* μετάφρασ* αξιολόγησ* σύστασ* ετυμηγορία
        ответ ответа ответу ответом ответе ответы ответов ответам ответами резюме сводк* оценк* рекомендаци* вердикт вывод
        відповідь відповіді відповіддю підсумок підсумк* переклад оцінк* рекомендаці*
        отговор отговора отговорът обобщение превод оценка препоръка препоръки
        odgovor odgovora odgovori одговор одговора резиме rezime sažetak сажетак prijevod prevod ocjena procjena ocena
        preporuka препорука povzetek priporočilo
        atsakym* santrauk* vertim* įvertinim* atbilde atbildes kopsavilkum* tulkojum* novērtējum* ieteikum*
        vastus vastuse vastused kokkuvõte* tõlge hinnang* soovitus* svarið samantekt* þýðing*
        תשובה התשובה תשובות תגובה התגובה סיכום הסיכום תרגום התרגום הערכה ההערכה המלצה ההמלצה
        إجابة الإجابة إجابات جواب الجواب رد الرد ردود ملخص الملخص تلخيص ترجمة الترجمة تقييم التقييم توصية التوصية
        پاسخ خلاصه ترجمه ارزیابی توصیه خلاصہ ترجمہ جائزہ سفارش
        जवाब उत्तर सारांश अनुवाद मूल्यांकन सिफारिश समीक्षा आउटपुट प्रतिक्रिया উত্তর জবাব সারাংশ সারসংক্ষেপ অনুবাদ মূল্যায়ন সুপারিশ
        câu_trả_lời phản_hồi tóm_tắt bản_tóm_tắt bản_dịch đánh_giá khuyến_nghị nhận_xét
        jawaban jawapan balasan tanggapan respons ringkasan terjemahan penilaian evaluasi ulasan rekomendasi keluaran
        maklum_balas sagot tugon buod pagsusuri majibu muhtasari tafsiri tathmini pendekezo mapendekezo
        resposta respostes resum resums traducció avaluació recomanació veredicte
        回答 回复 回覆 答复 答覆 答案 摘要 总结 總結 概要 翻译 翻譯 译文 评估 評估 评价 評價 评分 評分 推荐 推薦 建议 建議 结论 結論
        総括 答え 要約 返答 返信 まとめ 翻訳 評価 推奨 判定 レビュー 답변 응답 대답 요약 번역 평가 추천 권장 결론 리뷰
        คำตอบ สรุป คำแปล การประเมิน คำแนะนำ การตอบกลับ
    """,
    # Naming a model, an assistant or an automated reader as such.
    "model": """
        ai llm llms gpt* chatgpt claude gemini language_model language_models model models assistant assistants chatbot chatbots
        chat_bot bot bots summarizer summarizers summariser summarisers artificial_intelligence ai_assistant virtual_assistant
        agent agents copilot copilots crawler crawlers scraper parser parsers screening_tool screener grader graders reviewer_bot
        machine machines automated autonomous neural_network neural_networks
        ia ki ии модел* нейросет* μοντέλο نموذج מודל 模型 人工智能 人工智慧 机器人 モデル 人工知能 ボット 모델 인공지능 챗봇
        intelligence_artificielle modèle* assistante agent* robot* chatbot* robot_conversationnel agent_conversationnel copilote
        automatisé* autonome* réseau_neuronal réseaux_neuronaux analyseur évaluateur robot_d_indexation
        künstliche_intelligenz sprachmodell* modell* assistent* roboter* automatisiert* autonom* neuronales_netz neuronale_netze
        maschine bewerter
        inteligencia_artificial modelo* asistente* agente* rastreador analizador evaluador máquina automatizad* autónom*
        red_neuronal redes_neuronales
        intelligenza_artificiale modello modelli assistente* valutatore analizzatore macchina autonomo autonoma rete_neurale
        reti_neurali inteligência_artificial robô* avaliador analisador autônom* rede_neural redes_neurais
        kunstmatige_intelligentie taalmodel* modellen beoordelaar geautomatiseerd* autonoom neuraal_netwerk neurale_netwerken
        sztuczna_inteligencja sztucznej_inteligencji modelu modele modelem modeli asystent* czatbot* maszyn* zautomatyzowan*
        autonomiczn* sieć_neuronowa sieci_neuronowe
        umělá_inteligence umělé_inteligence jazykový_model modely asistent* automatizovan* autonomní neuronová_síť
        umelá_inteligencia umelej_inteligencie autonómn* neurónová_sieť
        artificiell_intelligens språkmodell* chattbot* maskin* automatiserad* neuralt_nätverk kunstig_intelligens
        automatisert* sprogmodel* automatiseret nevralt_nettverk neuralt_netværk
        tekoäly* kielimalli* malli mallin mallia avustaja* botti* agentti* robotti* automatisoitu* autonominen neuroverkko*
        mesterséges_intelligencia* nyelvi_modell* asszisztens* ágens* gép automatizált autonóm neurális_háló*
        inteligență_artificială inteligența_artificială inteligenței_artificiale model_lingvistic modelul mașină automatizat*
        rețea_neuronală
        yapay_zeka yapay_zekâ dil_modeli asistan* sohbet_botu ajan* makine* otonom* sinir_ağı*
        τεχνητή_νοημοσύνη τεχνητής_νοημοσύνης μοντέλ* βοηθός βοηθού ρομπότ πράκτορ* αυτοματοποιημέν* αυτόνομ* νευρωνικό_δίκτυο
        искусственный_интеллект искусственного_интеллекта нейронная_сеть ассистент* помощник* чат_бот чатбот* бота боту ботом
        агент* робот* краулер* автоматизированн* автономн* ші штучний_інтелект штучного_інтелекту асистент* помічник*
        автоматизован* нейромереж* изкуствен_интелект изкуствения_интелект автоматизиран* невронна_мрежа
        veštačka_inteligencija вештачка_интелигенција umjetna_inteligencija umjetne_inteligencije jezični_model pomoćnik*
        četbot* четбот* automatiziran* autonomn* аутономн* neuronska_mreža
        umetna_inteligenca umetne_inteligence jezikovni_model pomočnik* klepetalni_robot avtonomn*
        dirbtinis_intelektas dirbtinio_intelekto modelis modelio pokalbių_robot* automatizuot* autonomin* neuroninis_tinklas
        mākslīgais_intelekts mākslīgā_intelekta modeļa tērzēšanas_robot* aģent* mašīna automatizēt* neironu_tīkl*
        tehisintellekt* keelemudel* mudel* abiline vestlusrobot* juturobot* masin automatiseeritud autonoomne närvivõrk*
        gervigreind* mállíkan* líkan* spjallmenni* vélmenni* sjálfvirk*
        בינה_מלאכותית מודל_שפה המודל עוזר העוזר צ'אטבוט בוט הבוט סוכן הסוכן רובוט מכונה אוטומטי אוטונומי רשת_נוירונים
        الذكاء_الاصطناعي ذكاء_اصطناعي النموذج نموذج_لغوي النماذج المساعد مساعد روبوت الروبوت بوت الوكيل وكيل آلة الآلة شبكة_عصبية
        هوش_مصنوعی مدل_زبانی مدل دستیار چت_بات ربات بات ماشین خودکار خودمختار شبکه_عصبی
        مصنوعی_ذہانت ماڈل معاون اسسٹنٹ چیٹ_بوٹ بوٹ ایجنٹ روبوٹ مشین
        एआई कृत्रिम_बुद्धिमत्ता भाषा_मॉडल मॉडल सहायक चैटबॉट बॉट एजेंट रोबोट मशीन स्वचालित स्वायत्त न्यूरल_नेटवर्क
        এআই কৃত্রিম_বুদ্ধিমত্তা ভাষা_মডেল মডেল সহকারী চ্যাটবট এজেন্ট রোবট স্বয়ংক্রিয়
        trí_tuệ_nhân_tạo mô_hình mô_hình_ngôn_ngữ trợ_lý trợ_lý_ảo tác_nhân rô_bốt máy_móc tự_động mạng_nơ_ron mạng_thần_kinh
        kecerdasan_buatan model_bahasa asisten agen mesin otomatis otonom jaringan_saraf ejen automatik rangkaian_neural
        artipisyal_na_intelihensiya katulong ahente makina awtomatiko akili_bandia msaidizi roboti boti wakala mashine
        intel_ligència_artificial model_de_llenguatge xatbot* màquina automatitzat* autònom* xarxa_neuronal
        大模型 语言模型 語言模型 助手 助理 智能助手 聊天机器人 聊天機器人 機器人 智能体 智能體 爬虫 爬蟲 解析器 评分器
        自动化 自動化 神经网络 神經網絡 神經網路 言語モデル アシスタント チャットボット エージェント ロボット クローラー パーサー
        自律 ニューラルネットワーク 인공_지능 언어_모델 어시스턴트 비서 도우미 봇 에이전트 로봇 크롤러 파서 자동화 신경망
        ปัญญาประดิษฐ์ เอไอ โมเดล แบบจำลอง ผู้ช่วย แชทบอท บอท เอเจนต์ หุ่นยนต์ เครื่องจักร อัตโนมัติ โครงข่ายประสาท
    """,
    # Changing who the reader is, or having it pretend.
    "persona": """
        pretend pretending pretends roleplay role-play roleplaying act_as act_like behave_like behave_as play_the_role
        play_the_part take_on_the_role assume_the_role assume_the_identity assume_the_persona impersonate impersonating simulate
        simulating you_are_now you're_now from_now_on from_this_moment from_this_point henceforth persona personas
        stay_in_character developer_mode god_mode dan_mode jailbreak jailbroken jailbreaking unrestricted unfiltered uncensored
        no_restrictions no_limits no_filters no_rules without_restrictions without_limits without_filters alter_ego
        fais_semblant faites_semblant fais_comme_si faites_comme_si joue_le_rôle jouez_le_rôle incarne* tu_es_maintenant
        vous_êtes_maintenant désormais dorénavant à_partir_de_maintenant mode_développeur sans_restrictions sans_limites
        sans_filtre* non_censuré* agis_comme agissez_comme comporte_toi_comme
        tu_so_als tun_sie_so_als gib_dich_als spiele_die_rolle spielen_sie_die_rolle schlüpfe_in_die_rolle du_bist_jetzt
        du_bist_nun sie_sind_jetzt ab_jetzt ab_sofort von_nun_an entwicklermodus ohne_einschränkungen uneingeschränkt*
        verhalte_dich_wie rollenspiel*
        finge finja fingir haz_como_si haga_como_si actúa_como actúe_como compórtate_como ahora_eres a_partir_de_ahora
        de_ahora_en_adelante modo_desarrollador sin_restricciones sin_límites sin_filtros interpreta_el_papel asume_el_rol
        asume_el_papel juego_de_rol
        fingi fai_finta fai_come_se comportati_come agisci_come interpreta_il_ruolo ora_sei adesso_sei d_ora_in_poi da_ora_in_poi
        modalità_sviluppatore senza_restrizioni senza_limiti senza_filtri gioco_di_ruolo impersona*
        faça_de_conta faz_de_conta aja_como comporte-se_como desempenhe_o_papel interprete_o_papel agora_você_é
        a_partir_de_agora de_agora_em_diante modo_desenvolvedor modo_de_desenvolvedor sem_restrições sem_limites sem_filtros
        doe_alsof speel_de_rol gedraag_je_als je_bent_nu jij_bent_nu vanaf_nu voortaan ontwikkelaarsmodus zonder_beperkingen
        rollenspel
        udawaj zachowuj_się_jak wciel_się odgrywaj_rolę teraz_jesteś od_teraz od_tej_chwili odtąd tryb_dewelopera
        tryb_programisty bez_ograniczeń
        předstírej hraj_roli chovej_se_jako nyní_jsi teď_jsi od_teď od_nynějška režim_vývojáře bez_omezení
        predstieraj hraj_rolu správaj_sa_ako teraz_si odteraz režim_vývojára bez_obmedzení
        låtsas spela_rollen agera_som bete_dig_som du_är_nu från_och_med_nu hädanefter utvecklarläge utan_begränsningar
        rollspel lat_som late_som spill_rollen oppfør_deg_som du_er_nå fra_nå_av heretter utviklermodus uten_begrensninger
        rollespill lad_som spil_rollen opfør_dig_som du_er_nu fra_nu_af herefter udviklertilstand uden_begrænsninger rollespil
        teeskentele esitä_olevasi näyttele_roolia roolipeli* käyttäydy_kuin olet_nyt nyt_olet tästä_lähtien kehittäjätila*
        ilman_rajoituksia tégy_úgy_mintha tettesd* játszd_el szerepjáték* viselkedj_úgy mostantól fejlesztői_mód*
        korlátozások_nélkül
        prefă_te pretinde_că joacă_rolul comportă_te_ca acum_ești de_acum_înainte modul_dezvoltator fără_restricții joc_de_rol
        gibi_davran* taklit_et rolüne_gir rol_yap* şimdi_sen artık_sen bundan_sonra şu_andan_itibaren geliştirici_modu
        kısıtlamasız filtresiz
        προσποιήσου υποκρίσου υποδύσου παίξε_τον_ρόλο συμπεριφέρσου_σαν τώρα_είσαι από_τώρα_και_στο_εξής από_εδώ_και_πέρα
        λειτουργία_προγραμματιστή χωρίς_περιορισμούς παιχνίδι_ρόλων
        притворись притворяйся представь представьте веди_себя_как играй_роль сыграй_роль вживись теперь_ты отныне
        с_этого_момента режим_разработчика без_ограничений без_фильтров ролев* джейлбрейк
        вдавай прикинься зіграй_роль грай_роль поводься_як тепер_ти відтепер віднині з_цього_моменту режим_розробника
        без_обмежень рольов*
        преструвай_се престори_се изиграй_ролята играй_ролята дръж_се_като сега_си отсега_нататък от_сега_нататък
        режим_на_разработчик без_ограничения
        pretvaraj_se претварај_се glumi глуми ponašaj_se_kao понашај_се_као odigraj_ulogu sada_si сада_си od_sada од_сада
        ubuduće bez_ograničenja без_ограничења pretvarjaj_se igraj_vlogo obnašaj_se_kot zdaj_si od_zdaj odslej brez_omejitev
        apsimesk apsimeskite vaidink elkis_kaip dabar_tu_esi nuo_šiol kūrėjo_režim* be_apribojimų
        izliecies tēlo spēlē_lomu uzvedies_kā tagad_tu_esi no_šī_brīža turpmāk izstrādātāja_režīm* bez_ierobežojumiem
        teeskle mängi_rolli käitu_nagu nüüd_oled sa_oled_nüüd edaspidi nüüdsest arendajarežiim* ilma_piiranguteta
        þykstu láttu_eins_og leiktu_hlutverk nú_ert_þú héðan_í_frá án_takmarkana
        העמד_פנים תעמיד_פנים שחק_את_התפקיד התנהג_כמו אתה_עכשיו מעכשיו מעתה מצב_מפתח ללא_הגבלות בלי_הגבלות
        تظاهر تقمص العب_دور تصرف_كأنك تصرف_مثل أنت_الآن من_الآن_فصاعدا وضع_المطور بدون_قيود دون_قيود بلا_قيود
        وانمود تظاهر_کن نقش_بازی ایفای_نقش اکنون_تو الان_تو از_این_به_بعد از_حالا_به_بعد حالت_توسعه_دهنده بدون_محدودیت
        دکھاوا بہانہ_کرو کردار_ادا اب_تم اب_آپ اب_سے ڈویلپر_موڈ بغیر_پابندی
        दिखावा नाटक_करो भूमिका_निभा* की_तरह_व्यवहार अब_तुम अब_आप अब_से डेवलपर_मोड बिना_प्रतिबंध रोलप्ले
        ভান_কর* অভিনয়_কর* ভূমিকা_পালন এখন_তুমি এখন_থেকে ডেভেলপার_মোড বিধিনিষেধ_ছাড়া
        giả_vờ giả_làm đóng_vai nhập_vai cư_xử_như bây_giờ_bạn_là từ_giờ_trở_đi từ_bây_giờ từ_nay chế_độ_nhà_phát_triển
        không_giới_hạn không_hạn_chế không_bị_kiểm_duyệt
        berpura_pura pura_pura perankan berperan_sebagai bertindak_sebagai sekarang_kamu_adalah sekarang_anda_adalah
        mulai_sekarang mulai_dari_sekarang mode_pengembang tanpa_batasan bermain_peran berlakon mod_pembangun tanpa_sekatan
        magpanggap magkunwari gumanap_bilang kumilos_bilang ngayon_ikaw_ay mula_ngayon simula_ngayon walang_limitasyon
        jifanye igiza cheza_nafasi tenda_kama sasa_wewe_ni kuanzia_sasa tangu_sasa hali_ya_msanidi bila_vikwazo bila_vizuizi
        fes_veure fes_com_si fingeix actua_com interpreta_el_paper ara_ets a_partir_d_ara d_ara_endavant mode_desenvolupador
        sense_restriccions sense_límits
        假装 假裝 扮演 装作 裝作 充当 充當 角色扮演 现在你是 現在你是 从现在开始 從現在開始 从现在起 從現在起 从此刻起 开发者模式 開發者模式
        开发人员模式 越狱 越獄 不受限制 无限制 無限制 没有限制 沒有限制 无过滤
        ふりをし ふりして なりきっ なりきり 演じ ロールプレイ 今からあなたは これからあなたは 今後あなたは 開発者モード 脱獄
        ジェイルブレイク 制限なし 制限のない 無制限
        척하 척해 역할 연기해 흉내 지금부터 이제부터 개발자_모드 탈옥 제한_없는 제한_없이 필터_없는
        แกล้งทำ แสร้ง สวมบทบาท เล่นบทบาท ทำตัวเป็น ตอนนี้คุณคือ ตอนนี้คุณเป็น จากนี้ไป โหมดนักพัฒนา ไม่มีข้อจำกัด
    """,
    # Making a rule general: always, every, any, whatever, only.
    "every": """
        always every each any whenever regardless no_matter even_if whatever only all everything anything everyone anyone
        forever under_any_circumstances in_all_cases without_exception at_all_times
        toujours chaque tout toute tous toutes quel_que_soit quelle_que_soit quels_que_soient quoi_que n_importe seulement
        uniquement même_si sans_exception systématiquement
        immer jede* alle alles egal_was egal_wie stets jederzeit nur ausschließlich auch_wenn selbst_wenn unabhängig_davon
        ohne_ausnahme
        siempre cada toda todas todos cualquier cualquiera sin_importar no_importa aunque sólo solamente únicamente incluso_si
        pase_lo_que_pase sin_excepción
        sempre ogni tutte tutti tutto tutta qualsiasi qualunque soltanto indipendentemente anche_se comunque senza_eccezione
        qualquer quaisquer independentemente não_importa mesmo_que apenas somente sem_exceção
        altijd elke ieder iedere elk ongeacht wat_dan_ook zelfs_als alleen uitsluitend zonder_uitzondering
        zawsze każd* wszystk* jakikolwiek jakiekolwiek niezależnie bez_względu nawet_jeśli tylko wyłącznie bez_wyjątku
        vždy vždycky každ* všechn* všetk* jakýkoli* akýkoľvek* bez_ohledu bez_ohľadu i_když aj_keď pouze výhradně iba výlučne
        alltid varje alla allt oavsett även_om endast enbart hver hvert uansett kun utelukkende altid uanset udelukkende
        aina jokainen kaikki mikä_tahansa riippumatta vaikka ainoastaan poikkeuksetta
        mindig minden mindegyik bármi bármilyen akármi függetlenül még_ha csak kizárólag kivétel_nélkül
        întotdeauna mereu fiecare toate toți orice indiferent chiar_dacă doar numai exclusiv fără_excepție
        her_zaman her_biri her_bir herhangi daima hep ne_olursa_olsun olursa_olsun sadece yalnızca tüm bütün istisnasız
        πάντα πάντοτε κάθε όλα όλες όλοι οποιοσδήποτε οποιαδήποτε οποιοδήποτε ανεξάρτητα ακόμα_κι_αν ακόμη_και_αν μόνο
        αποκλειστικά
        всегда каждый каждая каждое каждого каждому все всё всех любой любая любое любые независимо неважно даже_если только
        исключительно без_исключени* завжди кожен кожна кожне всі усі будь_який незалежно навіть_якщо лише тільки виключно
        винаги всеки всяка всяко всички каквото_и_да дори_ако само единствено
        uvek увек uvijek svaki сваки svaka свака svi сви sve све bilo_koji било_који bez_obzira без_обзира samo isključivo
        vedno vsak vsaka vsi vse katerikoli ne_glede izključno
        visada visuomet kiekvien* visi visos bet_koks nepaisant net_jei tik tiktai vienmēr katrs katru katra jebkur*
        neatkarīgi pat_ja tikai vienīgi alati iga igal kõik mis_tahes olenemata isegi_kui ainult üksnes eranditult
        alltaf sama_hvað aðeins einungis
        תמיד כל כולם כל_דבר לא_משנה בלי_קשר גם_אם רק אך_ורק
        دائما كل جميع أي مهما بغض_النظر حتى_لو فقط همیشه هر همه هرچه حتی_اگر تنها صرفا ہمیشہ ہر_ایک تمام سب کوئی_بھی چاہے صرف
        हमेशा सदा हर प्रत्येक सभी सब कोई_भी चाहे भले_ही केवल सिर्फ़ सिर्फ সবসময় সর্বদা প্রতিটি প্রত্যেক সব সকল যেকোনো শুধু কেবল
        luôn luôn_luôn mỗi mọi tất_cả bất_kỳ bất_cứ bất_kể dù_thế_nào ngay_cả_khi chỉ duy_nhất
        selalu setiap semua segala apa_pun apapun terlepas_dari bahkan_jika meskipun hanya sentiasa sebarang walau_apa_pun
        palagi bawat lahat anuman kahit_ano kahit_na tanging lamang kila siku_zote yoyote vyovyote bila_kujali hata_kama
        pekee tots totes qualsevol independentment encara_que només únicament
        总是 總是 始终 始終 永远 永遠 每 任何 无论 無論 不管 所有 一律 一切 只能 仅 僅 务必 務必
        常に いつも 必ず 毎回 すべて 全て どんな 何があっても いかなる たとえ 例外なく 항상 언제나 모든 매번 무조건 어떠한 상관없이 관계없이 반드시 오직
        เสมอ ทุก ใดๆ ไม่ว่า แม้ว่า เท่านั้น ทั้งหมด
    """,
    # The person being served.
    "user": """
        user users customer customers reader readers requester requesters the_person_asking person_asking end_user end-user
        visitor visitors
        utilisateur* utilisatrice* lecteur lectrice lecteurs demandeur internaute* benutzer* nutzer* anwender* leser kunde*
        usuario* usuaria* lector lectora lectores cliente clientes solicitante utente utenti utilizzator* lettore lettori
        usuário* usuária* utilizador* leitor leitores gebruiker* lezer lezers klant klanten
        użytkownik* użytkowniczk* czytelnik* klient klienta klienci uživatel* čtenář* zákazník* používateľ* užívateľ* čitateľ*
        användare* läsare läsaren kund kunden bruker* leseren bruger* læser læseren
        käyttäjä* lukija* asiakas asiakkaa* felhasználó* olvasó* ügyfél ügyfel* utilizator* cititor* kullanıcı* okuyucu*
        müşteri*
        χρήστ* αναγνώστ* πελάτ* пользовател* читател* клиент клиента клиенту клиентом користувач* читач* клієнт* потребител*
        korisnik* корисник* čitatelj* čitalac читалац uporabnik* bralec bralca vartotoj* naudotoj* skaitytoj* lietotāj*
        lasītāj* kasutaja* lugeja* notandi* notanda* lesandi
        משתמש המשתמש למשתמש המשתמשים משתמשים הקורא הלקוח
        المستخدم مستخدم المستخدمين مستخدمين للمستخدم للمستخدمين المستخدمون القارئ العميل کاربر کاربران خواننده مشتری
        صارف صارفین قاری उपयोगकर्ता यूज़र यूजर पाठक ग्राहक ব্যবহারকারী পাঠক গ্রাহক
        người_dùng người_sử_dụng người_đọc khách_hàng pengguna pembaca pelanggan gumagamit mambabasa mtumiaji watumiaji
        msomaji mteja usuari usuària usuaris
        用户 用戶 使用者 读者 讀者 客户 客戶 提问者 提問者 ユーザー ユーザ 利用者 読者 お客様 質問者 사용자 유저 이용자 독자 고객 질문자
        ผู้ใช้ ผู้อ่าน ลูกค้า
    """,
    # What a model must not reveal or hand over.
    "secret": """
        system_prompt system_prompts system_message system_instructions hidden_prompt hidden_instructions initial_prompt
        initial_instructions internal_rules internal_instructions internal_configuration instructions_verbatim password
        passwords passphrase credential credentials api_key api_keys apikey secret secrets token tokens access_token cookie
        cookies conversation_history chat_history private_data personal_data private_key ssh_key
        invite_système prompt_système prompt_du_système message_système instructions_système mot_de_passe mots_de_passe
        identifiants clé_api clé_d_api jeton jetons historique_de_conversation historique_de_la_conversation données_privées
        données_personnelles instructions_internes règles_internes
        systemprompt systemanweisung* systemnachricht* passwort passwörter kennwort* zugangsdaten api_schlüssel geheimnis*
        geheim geheime chatverlauf* gesprächsverlauf* private_daten persönliche_daten interne_regeln
        prompt_del_sistema mensaje_del_sistema instrucciones_del_sistema contraseña* credenciales clave_api clave_de_api
        secreto secretos historial_de_conversación historial_del_chat datos_privados datos_personales reglas_internas
        prompt_di_sistema messaggio_di_sistema istruzioni_di_sistema credenziali chiave_api segreto segreti
        cronologia_della_chat cronologia_della_conversazione dati_privati dati_personali regole_interne
        prompt_do_sistema mensagem_do_sistema instruções_do_sistema senha senhas palavra_passe credenciais chave_de_api
        segredo segredos histórico_de_conversa histórico_da_conversa dados_privados dados_pessoais regras_internas
        systeemprompt* systeembericht* systeeminstructies wachtwoord* inloggegevens api_sleutel geheimen chatgeschiedenis
        gespreksgeschiedenis persoonsgegevens interne_regels
        prompt_systemowy promptu_systemowego instrukcje_systemowe hasło hasła haseł dane_logowania klucz_api sekret*
        tajemnic* historia_rozmowy historii_rozmowy dane_osobowe
        systémový_prompt systémové_instrukce heslo hesla heslá přihlašovací_údaje prihlasovacie_údaje tajemství tajomstvo
        historie_konverzace história_konverzácie osobní_údaje osobné_údaje
        systemprompt* systemmeddelande* lösenord inloggningsuppgifter api_nyckel* hemlighet* chatthistorik*
        konversationshistorik* personuppgifter systemmelding* passord api_nøkkel* hemmelighet* samtalehistorikk*
        personopplysninger adgangskode* kodeord* api_nøgle* hemmelighed* samtalehistorik* personoplysninger
        järjestelmäkehote* järjestelmäviest* salasana* kirjautumistiedot salaisuu* keskusteluhistoria* henkilötiedot
        rendszerprompt* rendszerüzenet* jelszó jelszav* titkos* beszélgetési_előzmény* személyes_adat*
        promptul_de_sistem prompt_de_sistem mesajul_de_sistem parolă parola parole credențiale cheia_api cheie_api secrete
        istoricul_conversației date_personale
        sistem_istemi sistem_komutu sistem_mesajı sistem_talimat* parola* şifre* kimlik_bilgi* api_anahtar* sırlar gizli
        sohbet_geçmiş* konuşma_geçmiş* kişisel_veri*
        μήνυμα_συστήματος προτροπή_συστήματος οδηγίες_συστήματος κωδικός_πρόσβασης κωδικό_πρόσβασης κωδικούς_πρόσβασης
        συνθηματικ* διαπιστευτήρια μυστικό μυστικά ιστορικό_συνομιλ* προσωπικά_δεδομένα
        системный_промпт системного_промпта системное_сообщение системные_инструкции системная_подсказка системный_запрос
        пароль пароля пароли паролей учетные_данные учётные_данные секрет секреты секретн* токен* история_переписки
        историю_переписки история_диалога историю_диалога история_чата историю_чата личные_данные персональные_данные
        системний_промпт системне_повідомлення системні_інструкції паролі облікові_дані секрети історія_чату історію_чату
        історію_розмови особисті_дані
        системен_промпт системно_съобщение парола тайна тайни история_на_чата история_на_разговора лични_данни
        sistemski_prompt системски_промпт sistemski_upit lozinka lozinke лозинка лозинке zaporka šifra шифра tajna тајна
        povijest_razgovora istorija_razgovora историја_разговора osobni_podaci lični_podaci лични_подаци
        sistemski_poziv geslo gesla skrivnost* zgodovina_pogovora osebni_podatki
        sistemos_raginim* slaptažod* paslapt* pokalbio_istorij* asmens_duomen* sistēmas_uzvedn* paroli paroles noslēpum*
        sarunas_vēstur* personas_dati süsteemiviip* süsteemisõnum* parool* salasõna* saladus* vestluse_ajalugu* isikuandmed
        lykilorð* leyndarmál* spjallsaga* persónuupplýsingar
        הנחיית_המערכת הנחיות_המערכת הודעת_המערכת סיסמה סיסמא הסיסמה סיסמאות פרטי_התחברות סוד סודות היסטוריית_השיחה מידע_אישי
        موجه_النظام رسالة_النظام تعليمات_النظام كلمة_المرور كلمات_المرور كلمة_السر بيانات_الاعتماد الأسرار أسرار سجل_المحادثة
        تاريخ_المحادثة البيانات_الشخصية
        پرامپت_سیستم پیام_سیستم دستور_سیستم رمز_عبور گذرواژه راز اسرار تاریخچه_گفتگو اطلاعات_شخصی
        سسٹم_پرامپٹ پاس_ورڈ پاسورڈ خفیہ ذاتی_معلومات
        सिस्टम_प्रॉम्प्ट सिस्टम_संदेश सिस्टम_निर्देश पासवर्ड गुप्त रहस्य चैट_इतिहास निजी_डेटा व्यक्तिगत_डेटा
        সিস্টেম_প্রম্পট পাসওয়ার্ড গোপন চ্যাট_ইতিহাস ব্যক্তিগত_তথ্য
        lời_nhắc_hệ_thống thông_điệp_hệ_thống mật_khẩu thông_tin_đăng_nhập khóa_api bí_mật lịch_sử_trò_chuyện
        lịch_sử_hội_thoại dữ_liệu_cá_nhân
        prompt_sistem pesan_sistem instruksi_sistem kata_sandi kredensial kunci_api rahasia riwayat_percakapan riwayat_obrolan
        data_pribadi kata_laluan rahsia sejarah_perbualan data_peribadi lihim nenosiri nywila siri historia_ya_mazungumzo
        indicació_del_sistema missatge_del_sistema contrasenya* credencials clau_api dades_personals
        系统提示 系統提示 系统消息 系統訊息 系统指令 系統指令 初始提示 隐藏提示 内部规则 內部規則 内部配置 密码 密碼 口令 凭证 憑證 凭据 密钥
        密鑰 秘密 令牌 对话历史 對話歷史 聊天记录 聊天記錄 聊天历史 个人数据 個人資料 隐私数据
        システムプロンプト システムメッセージ システム指示 初期プロンプト 隠しプロンプト 内部ルール 内部設定 パスワード 認証情報 資格情報
        機密 トークン 会話履歴 チャット履歴 個人情報 クッキー
        시스템_프롬프트 시스템_메시지 내부_규칙 비밀번호 자격_증명 api_키 비밀 토큰 대화_기록 채팅_기록 개인_정보 쿠키
        พรอมต์ระบบ ข้อความระบบ รหัสผ่าน ความลับ ประวัติการสนทนา ข้อมูลส่วนตัว
    """,
    # A model acting for the user: tools, sending on, doing it unasked or unseen.
    "tool": """
        tool tools plug-in plugin plugins function_call function_calls tool_call invoke invoking browser terminal shell
        send_email send_an_email send_mail forward forwarding exfiltrate exfiltration on_the_user's_behalf on_behalf_of
        on_your_behalf on_their_behalf without_asking without_confirmation without_confirming without_review without_approval
        without_permission without_telling without_notifying silently quietly secretly covertly in_the_background
        outil outils au_nom_de pour_le_compte_de en_son_nom sans_demander sans_confirmation sans_validation sans_vérification
        sans_autorisation transfère transférez envoie_un_e_mail envoie_un_courriel discrètement silencieusement en_silence
        en_arrière_plan exfiltr* navigateur
        werkzeug* im_namen_des im_namen_von im_auftrag_des im_auftrag_von ohne_nachfrage ohne_zu_fragen ohne_rückfrage
        ohne_bestätigung ohne_prüfung ohne_zustimmung weiterleiten leite sende_eine_e_mail schicke_eine_e_mail unbemerkt
        heimlich stillschweigend im_hintergrund
        herramienta* en_nombre_de en_nombre_del_usuario sin_preguntar sin_confirmación sin_confirmar sin_revisión
        sin_autorización reenvía reenvíe reenviar envía_un_correo envíe_un_correo silenciosamente en_silencio discretamente
        en_segundo_plano navegador
        strumento strumenti per_conto_di a_nome_di senza_chiedere senza_conferma senza_revisione senza_autorizzazione inoltra
        inoltrare invia_un_e_mail invia_una_e_mail invia_una_mail in_silenzio di_nascosto
        ferramenta* em_nome_de em_nome_do_usuário sem_perguntar sem_confirmação sem_confirmar sem_revisão sem_autorização
        encaminhe encaminha encaminhar envie_um_e_mail envia_um_e_mail envie_um_email em_silêncio em_segundo_plano
        hulpmiddel* namens uit_naam_van zonder_te_vragen zonder_bevestiging zonder_controle zonder_toestemming stuur_door
        doorsturen stuur_een_e_mail stilletjes ongemerkt op_de_achtergrond
        narzędzi* w_imieniu bez_pytania bez_potwierdzenia bez_weryfikacji bez_zgody przekaż prześlij wyślij_e_mail
        wyślij_maila po_cichu potajemnie w_tle przeglądark*
        nástroj* jménem v_zastoupení bez_ptaní bez_potvrzení bez_kontroly bez_souhlasu přepošli pošli_e_mail potichu tajně
        na_pozadí prohlížeč* v_mene bez_pýtania bez_potvrdenia bez_súhlasu prepošli tajne
        verktyg* å_användarens_vägnar för_användarens_räkning på_uppdrag_av utan_att_fråga utan_bekräftelse utan_granskning
        utan_godkännande vidarebefordra* skicka_ett_mejl i_tysthet i_bakgrunden obemärkt verktøy* på_vegne_av uten_å_spørre
        uten_bekreftelse uten_godkjenning videresend* i_stillhet i_bakgrunnen værktøj* på_vegne_af uden_at_spørge
        uden_bekræftelse uden_godkendelse i_stilhed i_baggrunden
        työkalu* puolesta käyttäjän_puolesta kysymättä vahvistamatta ilman_vahvistusta ilman_lupaa välitä_eteenpäin
        lähetä_sähköposti* huomaamatta salaa taustalla
        eszköz* nevében kérdezés_nélkül megerősítés_nélkül jóváhagyás_nélkül továbbítsd továbbítsa küldj_e_mailt csendben
        titokban észrevétlenül a_háttérben
        instrument* unealt* în_numele fără_să_întrebi fără_a_întreba fără_confirmare fără_aprobare redirecționează
        trimite_mai_departe trimite_un_e_mail în_tăcere pe_ascuns în_fundal
        araç* adına kullanıcı_adına sormadan onay_almadan onaysız incelemeden izinsiz ilet iletin e_posta_gönder sessizce
        gizlice arka_planda
        εργαλεί* για_λογαριασμό εκ_μέρους χωρίς_να_ρωτήσεις χωρίς_επιβεβαίωση χωρίς_έλεγχο χωρίς_άδεια προώθησε προωθήστε
        στείλε_email σιωπηλά κρυφά αθόρυβα στο_παρασκήνιο
        инструмент* от_имени от_лица без_спроса не_спрашивая без_подтверждения без_проверки без_разрешения перешли перешлите
        переслать отправь_письмо отправьте_письмо вызов_функции незаметно втайне в_фоне браузер*
        інструмент* від_імені не_питаючи без_підтвердження без_перевірки без_дозволу надішли_лист виклик_функції непомітно
        потай від_імені_користувача
        от_името_на без_да_питаш без_потвърждение без_проверка без_разрешение препрати изпрати_имейл незабелязано тайно
        alat алат алати u_ime у_име bez_pitanja без_питања bez_potvrde без_потврде bez_odobrenja prosledi проследи
        proslijedi pošalji_e_mail potajno u_pozadini orodje orodja v_imenu brez_vprašanja brez_potrditve posreduj v_ozadju
        įrank* naudotojo_vardu vartotojo_vardu neklausiant be_patvirtinimo be_leidimo persiųsk persiųskite tyliai slapta
        rīks rīku rīki lietotāja_vārdā nejautājot bez_apstiprinājuma bez_atļaujas pārsūti pārsūtiet klusi slepeni
        tööriist* kasutaja_nimel küsimata kinnituseta ilma_kinnituseta ilma_loata edasta vaikselt salaja
        verkfæri* fyrir_hönd án_þess_að_spyrja án_staðfestingar áframsend*
        כלי כלים בשם_המשתמש בשמו מטעם בלי_לשאול ללא_אישור בלי_אישור שלח_מייל העבר_את_המייל בשקט בסתר ברקע
        أداة أدوات الأداة الأدوات نيابة_عن بالنيابة_عن دون_سؤال دون_أن_تسأل دون_تأكيد بدون_تأكيد دون_إذن أرسل_بريدا بصمت خلسة سرا
        في_الخلفية
        ابزار ابزارها از_طرف از_جانب به_نمایندگی بدون_پرسیدن بدون_تأیید بدون_تایید بدون_اجازه فوروارد مخفیانه در_پس_زمینه
        ٹول کی_طرف_سے پوچھے_بغیر تصدیق_کے_بغیر اجازت_کے_بغیر فارورڈ خاموشی_سے چپکے_سے
        टूल उपकरण की_ओर_से बिना_पूछे बिना_पुष्टि बिना_अनुमति फॉरवर्ड ईमेल_भेजो ईमेल_भेजें चुपचाप चुपके_से
        টুল সরঞ্জাম ব্যবহারকারীর_পক্ষে জিজ্ঞাসা_না_করে অনুমতি_ছাড়া ফরোয়ার্ড চুপচাপ গোপনে
        công_cụ thay_mặt nhân_danh không_cần_hỏi không_hỏi không_cần_xác_nhận không_xác_nhận không_xin_phép chuyển_tiếp
        gửi_email gửi_thư gọi_hàm lặng_lẽ âm_thầm chạy_ngầm
        perkakas atas_nama bagi_pihak tanpa_bertanya tanpa_konfirmasi tanpa_persetujuan tanpa_izin tanpa_pengesahan
        tanpa_kebenaran teruskan kirim_email kirimkan_email hantar_e_mel diam_diam senyap_senyap secara_senyap
        di_latar_belakang
        kasangkapan sa_ngalan_ng nang_hindi_nagtatanong walang_pahintulot ipasa nang_tahimik palihim zana kwa_niaba_ya
        bila_kuuliza bila_uthibitisho bila_ruhusa sambaza tuma_barua_pepe kimya_kimya kwa_siri
        eina eines en_nom_de sense_preguntar sense_confirmació sense_permís reenvia envia_un_correu silenciosament d_amagat
        en_segon_pla
        工具 插件 代表用户 代表用戶 以用户名义 以用戶名義 替用户 未经确认 未經確認 无需确认 無需確認 不经确认 不要询问 无需询问 未经许可
        未經許可 未经审核 转发 轉發 发送邮件 發送郵件 发邮件 调用 調用 函数调用 悄悄 默默 偷偷 秘密地 后台 後台 浏览器 瀏覽器
        ツール プラグイン ユーザーに代わって 代わって 代理で 確認せずに 確認なしで 確認なしに 尋ねずに 聞かずに 許可なく 承認なしで 転送
        メールを送信 メール送信 関数呼び出し こっそり 黙って 密かに ひそかに バックグラウンド ブラウザ
        도구 툴 플러그인 대신하여 대신해 묻지_않고 확인_없이 승인_없이 허락_없이 검토_없이 전달해 전달하 이메일을_보내 함수_호출 몰래 조용히
        백그라운드 브라우저
        เครื่องมือ ในนามของ แทนผู้ใช้ โดยไม่ถาม โดยไม่ต้องถาม โดยไม่ยืนยัน โดยไม่ต้องยืนยัน ส่งต่อ ส่งอีเมล อย่างเงียบๆ เบื้องหลัง
    """,
    "you": "you your yours yourself",
}
