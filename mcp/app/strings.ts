import type { Lang } from '../../components/i18n/index.js';

/** The panel app's own chrome (the view's comes from the components' tables), one table per shipped language. */
const en = {
  documentTitle: 'Task panel',
  preparing: 'Preparing the panel…',
  sending: 'Sending your answer…',
  submittedNote: 'Your answer was sent to the chat.',
  prefilledNote: 'Your answer waits in the chat input: press Enter there to send it.',
  readNote: 'The assistant has read your answer.',
  noChannelNote: 'Your answer is saved. Tell the assistant in the chat that you answered; it reads your answer from here.',
  dismissedNote: 'You dismissed this panel; nothing was sent.',
  notTaken: 'The chat did not take your answer. It is saved here; send it again when you are ready.',
  unsure: 'Your answer was saved, but this panel cannot tell whether it reached the chat. If it is not there, send it again.',
  sendAgain: 'Send again',
  unreachable: 'This panel cannot reach its server right now. What you typed is kept here; try again.',
  tryAgain: 'Try again',
  refused: 'Some answers do not fit this panel. Check them and try again.',
  unknown: 'This panel is no longer available. Answer in the chat instead.',
  invalidModel: 'The panel could not be shown.',
  cancelled: 'The assistant stopped before this panel was ready.',
  elsewhere:
    'This chat did not ask for the panel, so the question is asked another way (a form or a message in the chat): answer it there.',
};

export type AppStrings = typeof en;

const zh: AppStrings = {
  documentTitle: '任务面板',
  preparing: '正在准备面板…',
  sending: '正在发送你的回答…',
  submittedNote: '你的回答已发送到对话中。',
  prefilledNote: '你的回答已放入对话输入框：在那里按 Enter 发送。',
  readNote: '助手已读取你的回答。',
  noChannelNote: '你的回答已保存。请在对话中告诉助手你已回答，它会从这里读取你的回答。',
  dismissedNote: '你已关闭此面板，没有发送任何内容。',
  notTaken: '对话没有接收你的回答。回答已保存在这里，准备好后请再次发送。',
  unsure: '你的回答已保存，但此面板无法确认它是否已到达对话。如果对话中没有，请再次发送。',
  sendAgain: '再次发送',
  unreachable: '此面板暂时无法连接到它的服务器。你输入的内容保留在这里，请重试。',
  tryAgain: '重试',
  refused: '有些回答不符合此面板。请检查后重试。',
  unknown: '此面板已不可用。请直接在对话中回答。',
  invalidModel: '无法显示此面板。',
  cancelled: '助手在此面板准备好之前停止了。',
  elsewhere: '此对话没有请求显示面板，因此问题会以其他方式提出（表单或对话中的消息）：请在那里回答。',
};

const es: AppStrings = {
  documentTitle: 'Panel de tarea',
  preparing: 'Preparando el panel…',
  sending: 'Enviando tu respuesta…',
  submittedNote: 'Tu respuesta se envió al chat.',
  prefilledNote: 'Tu respuesta espera en el campo del chat: pulsa Intro allí para enviarla.',
  readNote: 'El asistente ha leído tu respuesta.',
  noChannelNote: 'Tu respuesta está guardada. Di al asistente en el chat que ya respondiste; la leerá desde aquí.',
  dismissedNote: 'Descartaste este panel; no se envió nada.',
  notTaken: 'El chat no aceptó tu respuesta. Está guardada aquí; envíala de nuevo cuando quieras.',
  unsure: 'Tu respuesta se guardó, pero este panel no puede saber si llegó al chat. Si no está allí, envíala de nuevo.',
  sendAgain: 'Enviar de nuevo',
  unreachable: 'Este panel no puede conectar con su servidor ahora. Lo que escribiste se conserva aquí; inténtalo de nuevo.',
  tryAgain: 'Reintentar',
  refused: 'Algunas respuestas no encajan en este panel. Revísalas e inténtalo de nuevo.',
  unknown: 'Este panel ya no está disponible. Responde en el chat.',
  invalidModel: 'No se pudo mostrar el panel.',
  cancelled: 'El asistente se detuvo antes de que este panel estuviera listo.',
  elsewhere:
    'Este chat no pidió el panel, así que la pregunta llega de otra forma (un formulario o un mensaje en el chat): respóndela allí.',
};

const de: AppStrings = {
  documentTitle: 'Aufgabenbereich',
  preparing: 'Der Bereich wird vorbereitet…',
  sending: 'Deine Antwort wird gesendet…',
  submittedNote: 'Deine Antwort wurde an den Chat gesendet.',
  prefilledNote: 'Deine Antwort steht im Eingabefeld des Chats: Drücke dort die Eingabetaste, um sie zu senden.',
  readNote: 'Der Assistent hat deine Antwort gelesen.',
  noChannelNote: 'Deine Antwort ist gespeichert. Sag dem Assistenten im Chat, dass du geantwortet hast; er liest sie von hier.',
  dismissedNote: 'Du hast diesen Bereich verworfen; nichts wurde gesendet.',
  notTaken: 'Der Chat hat deine Antwort nicht angenommen. Sie ist hier gespeichert; sende sie erneut, wenn du so weit bist.',
  unsure:
    'Deine Antwort wurde gespeichert, aber dieser Bereich kann nicht erkennen, ob sie im Chat angekommen ist. Falls nicht, sende sie erneut.',
  sendAgain: 'Erneut senden',
  unreachable: 'Dieser Bereich erreicht seinen Server gerade nicht. Deine Eingaben bleiben hier; versuche es erneut.',
  tryAgain: 'Erneut versuchen',
  refused: 'Einige Antworten passen nicht zu diesem Bereich. Prüfe sie und versuche es erneut.',
  unknown: 'Dieser Bereich ist nicht mehr verfügbar. Antworte stattdessen im Chat.',
  invalidModel: 'Der Bereich konnte nicht angezeigt werden.',
  cancelled: 'Der Assistent hat angehalten, bevor dieser Bereich bereit war.',
  elsewhere:
    'Dieser Chat hat den Bereich nicht angefordert, daher kommt die Frage auf anderem Weg (ein Formular oder eine Nachricht im Chat): Beantworte sie dort.',
};

const ja: AppStrings = {
  documentTitle: 'タスクパネル',
  preparing: 'パネルを準備しています…',
  sending: '回答を送信しています…',
  submittedNote: '回答をチャットに送信しました。',
  prefilledNote: '回答はチャットの入力欄にあります。そこで Enter を押して送信してください。',
  readNote: 'アシスタントが回答を読み取りました。',
  noChannelNote: '回答は保存されました。チャットでアシスタントに回答したことを伝えてください。ここから回答を読み取ります。',
  dismissedNote: 'このパネルを閉じました。何も送信されていません。',
  notTaken: 'チャットが回答を受け付けませんでした。回答はここに保存されています。準備ができたらもう一度送信してください。',
  unsure: '回答は保存されましたが、チャットに届いたかどうかをこのパネルでは確認できません。届いていなければもう一度送信してください。',
  sendAgain: 'もう一度送信',
  unreachable: 'このパネルは現在サーバーに接続できません。入力した内容はここに残っています。もう一度お試しください。',
  tryAgain: '再試行',
  refused: 'このパネルに合わない回答があります。確認してもう一度お試しください。',
  unknown: 'このパネルはもう利用できません。チャットで回答してください。',
  invalidModel: 'パネルを表示できませんでした。',
  cancelled: 'このパネルの準備ができる前にアシスタントが停止しました。',
  elsewhere:
    'このチャットはパネルを要求しなかったため、質問は別の方法（フォームまたはチャットのメッセージ）で届きます。そちらで回答してください。',
};

const ar: AppStrings = {
  documentTitle: 'لوحة المهمة',
  preparing: 'جارٍ تجهيز اللوحة…',
  sending: 'جارٍ إرسال إجابتك…',
  submittedNote: 'أُرسلت إجابتك إلى المحادثة.',
  prefilledNote: 'إجابتك في حقل إدخال المحادثة: اضغط Enter هناك لإرسالها.',
  readNote: 'قرأ المساعد إجابتك.',
  noChannelNote: 'حُفظت إجابتك. أخبر المساعد في المحادثة أنك أجبت؛ سيقرأ إجابتك من هنا.',
  dismissedNote: 'أغلقت هذه اللوحة؛ لم يُرسل شيء.',
  notTaken: 'لم تقبل المحادثة إجابتك. إجابتك محفوظة هنا؛ أرسلها مرة أخرى عندما تكون مستعدًا.',
  unsure: 'حُفظت إجابتك، لكن هذه اللوحة لا تعرف هل وصلت إلى المحادثة. إن لم تجدها هناك فأرسلها مرة أخرى.',
  sendAgain: 'أرسل مرة أخرى',
  unreachable: 'لا تستطيع هذه اللوحة الوصول إلى خادمها الآن. ما كتبته محفوظ هنا؛ حاول مرة أخرى.',
  tryAgain: 'حاول مرة أخرى',
  refused: 'بعض الإجابات لا تناسب هذه اللوحة. راجعها وحاول مرة أخرى.',
  unknown: 'هذه اللوحة لم تعد متاحة. أجب في المحادثة بدلًا من ذلك.',
  invalidModel: 'تعذّر عرض اللوحة.',
  cancelled: 'توقّف المساعد قبل أن تصبح هذه اللوحة جاهزة.',
  elsewhere: 'لم تطلب هذه المحادثة اللوحة، لذا يصل السؤال بطريقة أخرى (نموذج أو رسالة في المحادثة): أجب عنه هناك.',
};

/** Every shipped language's table, by tag (a test holds each to English's keys). */
export const APP_STRINGS: Readonly<Record<string, AppStrings>> = { en, zh, es, de, ja, ar };

/** The model reads this one: it stays in English whatever the person's language. */
export const dismissedContext = (title: string): string =>
  `The person dismissed the panel ${JSON.stringify(title)} without answering. Do not wait for an answer to it.`;

/** The app's chrome in `lang` (a resolved table tag; English for a language it has no table for). */
export const appStrings = (lang: Lang): AppStrings => APP_STRINGS[lang] ?? en;
