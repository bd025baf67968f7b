import PDFDocument from 'pdfkit';

/** What one generated document shows: a title block, label/value pairs and optional item lines. */
interface ErpDocumentContent {
  title: string;
  number: string;
  company: { name: string; cnpj: string; city: string };
  fields: [label: string, value: string][];
  items?: { description: string; quantity: number; unitPrice: number }[];
  issuedAt: Date;
}

const money = (n: number) => n.toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' });

function formatCnpj(digits: string): string {
  return digits.length === 14 ? digits.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5') : digits;
}

/**
 * Renders an ERP document (client sheet, order...) as a real PDF with pdfkit. Streams are left
 * uncompressed: the files are small and tests can read the text they carry.
 */
export function renderErpDocument(content: ErpDocumentContent): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 48, compress: false, info: { Title: `${content.title} ${content.number}`, Author: content.company.name, CreationDate: content.issuedAt } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);

    doc.fontSize(16).font('Helvetica-Bold').text(content.company.name);
    doc.fontSize(9).font('Helvetica').fillColor('#555').text(`CNPJ ${formatCnpj(content.company.cnpj)} - ${content.company.city}`);
    doc.moveDown(1.2).fillColor('#000').fontSize(14).font('Helvetica-Bold').text(`${content.title} Nº ${content.number}`);
    doc.fontSize(9).font('Helvetica').fillColor('#555').text(`Emitido em ${content.issuedAt.toLocaleString('pt-BR', { timeZone: 'America/Sao_Paulo' })}`);
    doc.moveDown(1).fillColor('#000');

    for (const [label, value] of content.fields) {
      doc.fontSize(10).font('Helvetica-Bold').text(`${label}: `, { continued: true }).font('Helvetica').text(value || '-');
    }

    if (content.items?.length) {
      doc.moveDown(1).fontSize(11).font('Helvetica-Bold').text('Itens');
      const x = doc.page.margins.left;
      let y = doc.y + 6;
      const cols = [x, x + 260, x + 330, x + 420];
      doc.fontSize(9).font('Helvetica-Bold');
      ['Descrição', 'Qtd.', 'Valor unit.', 'Total'].forEach((h, i) => doc.text(h, cols[i]!, y));
      doc.font('Helvetica');
      let total = 0;
      for (const item of content.items) {
        y += 16;
        const line = item.quantity * item.unitPrice;
        total += line;
        doc.text(item.description.slice(0, 48), cols[0]!, y).text(String(item.quantity), cols[1]!, y).text(money(item.unitPrice), cols[2]!, y).text(money(line), cols[3]!, y);
      }
      y += 22;
      doc.font('Helvetica-Bold').text(`Total geral: ${money(total)}`, cols[2]!, y);
    }
    doc.end();
  });
}
