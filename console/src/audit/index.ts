import History from '@mui/icons-material/History';
import { AuditList } from './AuditList';

export default { list: AuditList, icon: History };
