import { useContext, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Add from '@mui/icons-material/Add';
import Download from '@mui/icons-material/Download';
import Print from '@mui/icons-material/Print';
import UploadFile from '@mui/icons-material/UploadFile';
import CloudUpload from '@mui/icons-material/CloudUpload';
import GridOn from '@mui/icons-material/GridOn';
import History from '@mui/icons-material/History';
import { useNavigate } from 'react-admin';
import { useListContext, useRefresh } from 'react-admin';
import { hasTenantClaim, messages } from '@atendimento/schemas';
import { AppConfigContext } from '../../boot/AppConfigContext';
import { session } from '../../api/session';
import type { RegisterView } from '../definitions';
import { download, exportQuery, reportUrl } from './downloads';
import { ImportDialog } from './ImportDialog';
import { RegisterSearch } from './RegisterSearch';
import { UploadDialog } from './UploadDialog';
import { SubCollectionExportDialog } from './SubCollectionExportDialog';

/**
 * The generic table's toolbar (seed 000 §2): search, new, CSV / xlsx downloads, print (PDF
 * preview), CSV import and file upload, each only when list.json `toolbar` names it. Exports
 * take the list's current filter and sort.
 */
export function RegisterToolbar({ view, searchDebounceMs }: { view: RegisterView; searchDebounceMs?: number }) {
  const { filterValues, sort } = useListContext();
  const navigate = useNavigate();
  const refresh = useRefresh();
  const [dialog, setDialog] = useState<'import' | 'upload' | 'subCollection' | null>(null);
  const config = useContext(AppConfigContext);
  const [pdf, setPdf] = useState<string | null>(null);
  const { name, toolbar } = view.list;
  const writable = !view.readOnly;
  const query = () => exportQuery(filterValues, sort);
  const has = (action: (typeof toolbar)[number]) => toolbar.includes(action);

  return (
    <Box sx={{ display: 'flex', flexWrap: { xs: 'wrap', sm: 'nowrap' }, alignItems: 'flex-start', gap: 1, width: '100%', pt: 1 }}>
      <Box sx={{ width: { xs: '100%', sm: 320 }, flexShrink: 0 }}>
        <RegisterSearch debounceMs={searchDebounceMs} />
      </Box>
      <Box sx={{ flex: 1, display: 'flex', flexWrap: 'wrap', justifyContent: 'flex-end', alignItems: 'center', gap: 0.5, pt: 0.5 }}>
      {has('create') && writable && (
        <Button size="small" variant="contained" startIcon={<Add />} onClick={() => navigate(`/${name}/create`)}>
          {messages.registers.create}
        </Button>
      )}
      {has('csv') && (
        <Button size="small" startIcon={<Download />} onClick={() => void download(`/api/${name}/getRawCsvDataReport?${query()}`, `${name}.csv`)}>
          {messages.registers.csv}
        </Button>
      )}
      {has('xlsx') && (
        <Button size="small" startIcon={<GridOn />} onClick={() => void download(`/api/${name}/getXlsxDataReport?${query()}`, `${name}.xlsx`)}>
          {messages.registers.xlsx}
        </Button>
      )}
      {has('print') && (
        <Button size="small" startIcon={<Print />} onClick={async () => setPdf(await reportUrl(name, query()))}>
          {messages.registers.print}
        </Button>
      )}
      {has('import') && writable && (
        <Button size="small" startIcon={<UploadFile />} onClick={() => setDialog('import')}>
          {messages.registers.import}
        </Button>
      )}
      {has('subCollectionExport') && view.list.subCollections.length > 0 && config && hasTenantClaim(config, 'enableAgentStatusExporter') && (
        <Button size="small" startIcon={<History />} onClick={() => setDialog('subCollection')}>
          {messages.registers.subCollectionExport}
        </Button>
      )}
      {has('upload') && (
        <Button size="small" startIcon={<CloudUpload />} onClick={() => setDialog('upload')}>
          {messages.registers.upload}
        </Button>
      )}
      </Box>
      <ImportDialog collection={name} open={dialog === 'import'} onClose={() => setDialog(null)} onImported={refresh} />
      <UploadDialog open={dialog === 'upload'} onClose={() => setDialog(null)} />
      {dialog === 'subCollection' && <SubCollectionExportDialog collection={name} open defaultRecipient={session.user?.email ?? ''} onClose={() => setDialog(null)} />}
      <Dialog open={pdf !== null} onClose={() => setPdf(null)} fullWidth maxWidth="lg">
        <DialogTitle>{messages.registers.print}</DialogTitle>
        <DialogContent sx={{ height: '75vh' }}>{pdf && <iframe title={messages.registers.print} src={pdf} style={{ width: '100%', height: '100%', border: 0 }} />}</DialogContent>
        <DialogActions>
          <Button onClick={() => setPdf(null)}>{messages.registers.close}</Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
