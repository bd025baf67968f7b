/** Last-message labels of seed 001 §9 for media and structured message types (the room list's preview). */
export const lastMessageLabels = {
  image: 'Imagem', document: 'Documento', audio: 'Áudio', video: 'Vídeo', location: 'Localização',
  contact: 'Contato', contacts: 'Contato', card: 'Card', sticker: 'Sticker', call: 'Chamada',
  order: 'Pedido', system: 'Aviso do WhatsApp', unsupported: 'Mensagem não suportada',
} as const;
